//! The Fortran bindings, generated at build time from one description of each routine
//! (fortran/routines.txt) and the constants of include/mpi.h (read by bindgen):
//!
//! - `fortran_shells.rs`: the exported `pmpi_x_` and `mpi_x_` symbols, the predefined
//!   callbacks (`mpi_comm_dup_fn_` ...) and the `==`/`/=` functions of `use mpi_f08`;
//! - `mpif.h`: constants and EXTERNAL declarations, valid in fixed and free form;
//! - `mpi.f90` and `mpi_f08.f90`: the two modules, with explicit interfaces.
//!
//! Included by build.rs; it only turns text into text.

use std::fmt::Write as _;

/// An integer constant of the C header.
pub struct Constant {
    pub name: String,
    pub value: i64,
    /// The handle type (`MPI_Comm` ...) for predefined handles.
    pub handle_type: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    In,
    Out,
    InOut,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Callback {
    Comm,
    Type,
    Win,
    Mpi1,
}

#[derive(Clone, PartialEq, Eq, Debug)]
enum Type {
    Int,
    /// INTEGER(KIND=MPI_ADDRESS_KIND), and MPI_OFFSET_KIND (of the same size).
    Aint,
    /// INTEGER(KIND=MPI_COUNT_KIND) (of the same size as the other two).
    Count,
    Logical,
    /// A handle, by its C type name (`MPI_Comm`).
    Handle(&'static str),
    String,
    Status,
    Choice,
    Baseptr,
    CopyFn(Callback),
    DeleteFn(Callback),
    /// MPI_OP_CREATE's user function (`MPI_User_function`).
    UserFn,
    /// An error handler function; the object's handle type (`MPI_Comm`).
    ErrhandlerFn(&'static str),
    /// A callback of MPI_GREQUEST_START: `query`, `free` or `cancel`.
    GrequestFn(&'static str),
    /// A detach routine's BUFFER_ADDR: unused `<type> BUFFER_ADDR(*)` in mpif.h and `use mpi`,
    /// TYPE(C_PTR) in `use mpi_f08`.
    BufferAddr,
    /// An array of assumed size (`int[]`, `request[]`, `status[]`).
    Array(Box<Type>),
}

#[derive(Debug)]
struct Argument {
    name: String,
    mode: Mode,
    ty: Type,
}

#[derive(Debug)]
pub struct Routine {
    /// Upper case: `MPI_COMM_GET_ATTR`.
    name: String,
    args: Vec<Argument>,
    /// A function (`-> double`, `-> aint`): its Fortran result type; no IERROR.
    returns: Option<&'static str>,
    on_world: bool,
    fast: bool,
    /// Generated over the C body (bindings/generate_c.rs): no shell here.
    generated: bool,
    /// Generated, with choice buffers: `use mpi_f08` binds to `mpi_x_f08` with C descriptors.
    choice: bool,
    /// A subroutine without IERROR (`no-ierror`: MPI_PCONTROL).
    no_ierror: bool,
    /// The large-count form `MPI_X_C` of the routine MPI_X (`large`): in `use mpi_f08` only,
    /// a specific procedure of the generic name MPI_X.
    large: bool,
}

fn parse_type(words: &[&str], line: &str) -> Type {
    let callback = |word: Option<&&str>| match word.copied() {
        Some("comm") => Callback::Comm,
        Some("type") => Callback::Type,
        Some("win") => Callback::Win,
        Some("mpi1") => Callback::Mpi1,
        other => panic!("routines.txt: unknown callback kind {other:?} in `{line}`"),
    };
    if let Some(element) = words[0].strip_suffix("[]") {
        let mut element_words = words.to_vec();
        element_words[0] = element;
        return Type::Array(Box::new(parse_type(&element_words, line)));
    }
    match words[0] {
        "int" => Type::Int,
        "offset" => Type::Aint,
        "count" => Type::Count,
        "aint" => Type::Aint,
        "logical" => Type::Logical,
        "comm" => Type::Handle("MPI_Comm"),
        "datatype" => Type::Handle("MPI_Datatype"),
        "win" => Type::Handle("MPI_Win"),
        "request" => Type::Handle("MPI_Request"),
        "info" => Type::Handle("MPI_Info"),
        "errhandler" => Type::Handle("MPI_Errhandler"),
        "op" => Type::Handle("MPI_Op"),
        "group" => Type::Handle("MPI_Group"),
        "session" => Type::Handle("MPI_Session"),
        "message" => Type::Handle("MPI_Message"),
        "file" => Type::Handle("MPI_File"),
        "string" => Type::String,
        "status" => Type::Status,
        "choice" => Type::Choice,
        "baseptr" => Type::Baseptr,
        "copy_fn" => Type::CopyFn(callback(words.get(1))),
        "delete_fn" => Type::DeleteFn(callback(words.get(1))),
        "user_fn" => Type::UserFn,
        "bufaddr" => Type::BufferAddr,
        "grequest_fn" => Type::GrequestFn(match words.get(1).copied() {
            Some("query") => "query",
            Some("free") => "free",
            Some("cancel") => "cancel",
            other => {
                panic!("routines.txt: unknown generalized request callback {other:?} in `{line}`")
            }
        }),
        "errhandler_fn" => Type::ErrhandlerFn(match words.get(1).copied() {
            Some("comm") => "MPI_Comm",
            Some("win") => "MPI_Win",
            Some("session") => "MPI_Session",
            Some("file") => "MPI_File",
            other => panic!("routines.txt: unknown error handler kind {other:?} in `{line}`"),
        }),
        other => panic!("routines.txt: unknown type `{other}` in `{line}`"),
    }
}

/// Reads fortran/routines.txt.
pub fn parse_routines(text: &str) -> Vec<Routine> {
    let mut routines = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, rest) = line
            .split_once('(')
            .unwrap_or_else(|| panic!("routines.txt: no argument list in `{line}`"));
        let (arguments, options) = rest
            .split_once(')')
            .unwrap_or_else(|| panic!("routines.txt: unclosed argument list in `{line}`"));
        let mut args = Vec::new();
        for argument in arguments
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
        {
            let (arg_name, spec) = argument
                .split_once(':')
                .unwrap_or_else(|| panic!("routines.txt: `{argument}` lacks a type in `{line}`"));
            let mut words: Vec<&str> = spec.split_whitespace().collect();
            let mode = match words.first() {
                Some(&"out") => Mode::Out,
                Some(&"inout") => Mode::InOut,
                _ => Mode::In,
            };
            if mode != Mode::In {
                words.remove(0);
            }
            args.push(Argument {
                name: arg_name.trim().to_string(),
                mode,
                ty: parse_type(&words, line),
            });
        }
        routines.push(Routine {
            name: name.trim().to_string(),
            args,
            returns: if options.contains("-> double") {
                Some("double precision")
            } else if options.contains("-> aint") {
                Some("integer(kind=MPI_ADDRESS_KIND)")
            } else {
                None
            },
            on_world: options.contains("on world"),
            fast: options.split_whitespace().any(|word| word == "fast"),
            generated: options.split_whitespace().any(|word| word == "generated"),
            choice: options.split_whitespace().any(|word| word == "choice"),
            no_ierror: options.split_whitespace().any(|word| word == "no-ierror"),
            large: options.split_whitespace().any(|word| word == "large"),
        });
    }
    routines
}

impl Routine {
    /// `comm_get_attr`: the function in src/fortran/routines.rs.
    fn rust_name(&self) -> String {
        self.name.trim_start_matches("MPI_").to_lowercase()
    }

    /// `MPI_Comm_get_attr`: the spelling of the mpi_f08 interface.
    fn f08_name(&self) -> String {
        let lower = self.name.to_lowercase();
        let rest = lower.trim_start_matches("mpi_");
        let mut chars = rest.chars();
        let first = chars
            .next()
            .map(|c| c.to_ascii_uppercase())
            .unwrap_or_default();
        format!("MPI_{first}{}", chars.as_str())
    }

    fn has_baseptr(&self) -> bool {
        self.args.iter().any(|a| a.ty == Type::Baseptr)
    }
}

// ---- Rust ------------------------------------------------------------------------------

/// The Rust parameter type of an argument (Fortran passes everything by reference).
fn rust_param(arg: &Argument) -> &'static str {
    match (&arg.ty, arg.mode) {
        (Type::Aint | Type::Count, Mode::In) => "*const Word",
        (Type::Aint | Type::Count | Type::Baseptr, _) => "*mut Word",
        (Type::Int | Type::Handle(_), Mode::In) => "*const Fint",
        (Type::Int | Type::Handle(_) | Type::Logical | Type::Status, _) => "*mut Fint",
        (Type::String, Mode::In) => "*const u8",
        (Type::String, _) => "*mut u8",
        (Type::Choice, _) => "*mut c_void",
        (
            Type::CopyFn(_)
            | Type::DeleteFn(_)
            | Type::UserFn
            | Type::ErrhandlerFn(_)
            | Type::GrequestFn(_),
            _,
        ) => "FortranProc",
        (Type::Array(_), _) => panic!("routines.txt: a hand-written routine with an array"),
        (Type::BufferAddr, _) => panic!("routines.txt: a hand-written routine with BUFFER_ADDR"),
    }
}

/// The expression that turns a raw argument into what the routine takes.
fn rust_value(arg: &Argument) -> String {
    let n = &arg.name;
    match (&arg.ty, arg.mode) {
        (Type::String, Mode::In) => format!("text({n}, {n}_len, \"{n}\")?"),
        (Type::String, _) => format!("text_out({n}, {n}_len, \"{n}\")?"),
        (Type::Status, _) => format!("Out::new({n}.cast::<Status>(), \"{n}\")?"),
        (Type::Choice, _) => format!("{n} as usize"),
        (
            Type::CopyFn(_)
            | Type::DeleteFn(_)
            | Type::UserFn
            | Type::ErrhandlerFn(_)
            | Type::GrequestFn(_),
            _,
        ) => n.clone(),
        (_, Mode::In) => format!("read({n}, \"{n}\")?"),
        (_, _) => format!("Out::new({n}, \"{n}\")?"),
    }
}

/// How an input argument appears in a fatal error's message; `None` for outputs.
fn rust_describe(arg: &Argument) -> Option<String> {
    let n = &arg.name;
    if arg.mode == Mode::Out {
        return None;
    }
    Some(match &arg.ty {
        Type::Handle(_) => format!("&HandleArg({n})"),
        Type::String => format!("&Text({n}, {n}_len)"),
        Type::Choice => format!("&Address({n} as usize)"),
        Type::CopyFn(_)
        | Type::DeleteFn(_)
        | Type::UserFn
        | Type::ErrhandlerFn(_)
        | Type::GrequestFn(_) => format!("&Callback({n})"),
        _ => format!("&Value({n})"),
    })
}

fn rust_target(routine: &Routine) -> String {
    if routine.on_world {
        return "Target::Comm(abi::MPIATTR_HANDLE_MPI_COMM_WORLD as usize as MPI_Comm)".to_string();
    }
    let first = routine.args.iter().find(|a| {
        a.mode != Mode::Out && matches!(a.ty, Type::Handle("MPI_Comm") | Type::Handle("MPI_Win"))
    });
    match first {
        Some(arg) if arg.ty == Type::Handle("MPI_Comm") => format!("comm_target({})", arg.name),
        Some(arg) => format!("win_target({})", arg.name),
        None => "Target::SelfComm".to_string(),
    }
}

fn rust_shell(out: &mut String, routine: &Routine) {
    let lower = routine.name.to_lowercase();
    let rust = routine.rust_name();
    let names: Vec<String> = routine.args.iter().map(|a| a.name.clone()).collect();
    let signature = format!(
        "{}({})",
        routine.name,
        names
            .iter()
            .cloned()
            .chain(routine.returns.is_none().then(|| "ierror".to_string()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if routine.returns.is_some() {
        assert!(
            routine.returns == Some("double precision") && routine.args.is_empty(),
            "routines.txt: {}: a hand-written function returns a double and takes no argument",
            routine.name
        );
        writeln!(
            out,
            "/// `{signature}`, for Fortran (mpif.h, `use mpi`, `use mpi_f08`).
#[no_mangle]
pub extern \"C\" fn p{lower}_() -> f64 {{
    ffi::call_infallible(0.0, routines::{rust})
}}

/// `{signature}`: forwards to `p{lower}_`, so a profiling library can interpose it.
#[no_mangle]
pub extern \"C\" fn {lower}_() -> f64 {{
    p{lower}_()
}}
"
        )
        .unwrap();
        return;
    }
    let mut params: Vec<String> = routine
        .args
        .iter()
        .map(|a| format!("{}: {}", a.name, rust_param(a)))
        .collect();
    params.push("ierror: *mut Fint".to_string());
    for arg in routine.args.iter().filter(|a| a.ty == Type::String) {
        params.push(format!("{}_len: usize", arg.name));
    }
    let mut forwarded: Vec<String> = names.clone();
    forwarded.push("ierror".to_string());
    for arg in routine.args.iter().filter(|a| a.ty == Type::String) {
        forwarded.push(format!("{}_len", arg.name));
    }
    let described: Vec<String> = routine
        .args
        .iter()
        .filter_map(|a| rust_describe(a).map(|d| format!("(\"{}\", {d})", a.name)))
        .collect();
    let values: Vec<String> = routine.args.iter().map(rust_value).collect();
    let params = params.join(", ");
    let forwarded = forwarded.join(", ");
    let fast = if routine.fast {
        format!(
            "    // The common case first, without any call; `None` goes the whole way.
    // SAFETY: the fast path reads and writes the arguments as the routine does.
    if let Some(code) = unsafe {{ routines::fast::{rust}({}) }} {{
        // SAFETY: `ierror` is NULL or valid (this function's contract).
        unsafe {{ finish(ierror, code) }};
        return;
    }}
",
            names.join(", ")
        )
    } else {
        String::new()
    };
    writeln!(
        out,
        "/// `{name}` whole: argument checks, the engine, the error handler, IERROR. `extern
/// \"C\"` (it catches every panic), so that the entry points jump to it as their last step.
///
/// # Safety
/// As for `p{lower}_`.
#[inline(never)]
unsafe extern \"C\" fn whole_{lower}({params}) {{
    // SAFETY: each argument helper needs what this function's contract guarantees.
    unsafe {{
        finish(
            ierror,
            ffi::call(
                \"{name}\",
                move || {target},
                move |line| describe_all(line, &[{described}]),
                {body},
            ),
        )
    }}
}}

/// The body of `p{lower}_` and `{lower}_`, inlined into each (so that neither reaches the
/// other through the symbol table).
///
/// # Safety
/// As for `p{lower}_`.
#[inline(always)]
unsafe fn entry_{lower}({params}) {{
{fast}    // SAFETY: the same contract as this function's.
    unsafe {{ whole_{lower}({forwarded}) }}
}}

/// `{signature}`, for Fortran (mpif.h, `use mpi`, `use mpi_f08`).
///
/// # Safety
/// Fortran's convention: every argument is a reference valid for the accesses the routine
/// makes (strings for their hidden lengths); `ierror` may be NULL (an absent OPTIONAL).
#[no_mangle]
pub unsafe extern \"C\" fn p{lower}_({params}) {{
    // SAFETY: the same contract as this function's.
    unsafe {{ entry_{lower}({forwarded}) }}
}}

/// `{signature}`: the same body as `p{lower}_` (a profiling library can interpose it).
///
/// # Safety
/// As for `p{lower}_`.
#[no_mangle]
pub unsafe extern \"C\" fn {lower}_({params}) {{
    // SAFETY: the same contract as `p{lower}_`, which the caller upholds.
    unsafe {{ entry_{lower}({forwarded}) }}
}}
",
        name = routine.name,
        target = rust_target(routine),
        described = described.join(", "),
        body = if values.is_empty() {
            format!("routines::{rust}")
        } else {
            format!("|| routines::{rust}({})", values.join(", "))
        },
    )
    .unwrap();
    if routine.has_baseptr() {
        writeln!(
            out,
            "/// `{name}_CPTR`: the TYPE(C_PTR) variant of `use mpi`'s generic `{name}`.
///
/// # Safety
/// As for `p{lower}_`.
#[no_mangle]
pub unsafe extern \"C\" fn {lower}_cptr_({params}) {{
    // SAFETY: a TYPE(C_PTR) is one address, as the INTEGER(KIND=MPI_ADDRESS_KIND) of
    // `p{lower}_`; the rest of the contract is the caller's.
    unsafe {{ p{lower}_({forwarded}) }}
}}
",
            name = routine.name,
        )
        .unwrap();
    }
}

/// The predefined callbacks: (Fortran name, kind, what it does).
const PREDEFINED_CALLBACKS: &[(&str, Callback, &str)] = &[
    ("MPI_COMM_NULL_COPY_FN", Callback::Comm, "null_copy"),
    ("MPI_COMM_DUP_FN", Callback::Comm, "dup"),
    ("MPI_COMM_NULL_DELETE_FN", Callback::Comm, "null_delete"),
    ("MPI_TYPE_NULL_COPY_FN", Callback::Type, "null_copy"),
    ("MPI_TYPE_DUP_FN", Callback::Type, "dup"),
    ("MPI_TYPE_NULL_DELETE_FN", Callback::Type, "null_delete"),
    ("MPI_WIN_NULL_COPY_FN", Callback::Win, "null_copy"),
    ("MPI_WIN_DUP_FN", Callback::Win, "dup"),
    ("MPI_WIN_NULL_DELETE_FN", Callback::Win, "null_delete"),
    ("MPI_NULL_COPY_FN", Callback::Mpi1, "null_copy"),
    ("MPI_DUP_FN", Callback::Mpi1, "dup"),
    ("MPI_NULL_DELETE_FN", Callback::Mpi1, "null_delete"),
];

fn rust_predefined_callbacks(out: &mut String) {
    for (name, kind, action) in PREDEFINED_CALLBACKS {
        let lower = name.to_lowercase();
        let word = if *kind == Callback::Mpi1 {
            "Fint"
        } else {
            "Word"
        };
        let (params, call) = if *action == "null_delete" {
            (
                format!("object: *const Fint, keyval: *const Fint, attribute_val: *const {word}, extra_state: *mut {word}, ierror: *mut Fint"),
                "callbacks::null_delete(ierror)".to_string(),
            )
        } else {
            (
                format!("oldobject: *const Fint, keyval: *const Fint, extra_state: *mut {word}, attribute_val_in: *const {word}, attribute_val_out: *mut {word}, flag: *mut Fint, ierror: *mut Fint"),
                format!("callbacks::{action}(attribute_val_in, attribute_val_out, flag, ierror)"),
            )
        };
        let unused = if *action == "null_delete" {
            "object, keyval, attribute_val, extra_state"
        } else {
            "oldobject, keyval, extra_state"
        };
        writeln!(
            out,
            "/// `{name}`, the predefined Fortran callback. Passed to a create call it is
/// recognised and never called; a program may also call it itself.
///
/// # Safety
/// Fortran's convention: every argument is a valid reference.
#[no_mangle]
pub unsafe extern \"C\" fn {lower}_({params}) {{
    let _ = ({unused});
    // SAFETY: the references are valid (this function's contract).
    unsafe {{ {call} }}
}}
"
        )
        .unwrap();
    }
    writeln!(
        out,
        "/// The addresses of the predefined callbacks, for recognising them in create calls.
pub(crate) fn predefined_callback(function: usize) -> Option<callbacks::Predefined> {{"
    )
    .unwrap();
    for (name, _, action) in PREDEFINED_CALLBACKS {
        let variant = match *action {
            "null_copy" => "NullCopy",
            "dup" => "Dup",
            _ => "NullDelete",
        };
        writeln!(
            out,
            "    if function == {}_ as *const () as usize {{
        return Some(callbacks::Predefined::{variant});
    }}",
            name.to_lowercase()
        )
        .unwrap();
    }
    writeln!(out, "    None\n}}\n").unwrap();
    writeln!(
        out,
        "/// The name of a predefined callback, for fatal errors' messages.
pub(crate) fn predefined_callback_name(function: usize) -> Option<&'static str> {{"
    )
    .unwrap();
    for (name, _, _) in PREDEFINED_CALLBACKS {
        writeln!(
            out,
            "    if function == {}_ as *const () as usize {{
        return Some(\"{name}\");
    }}",
            name.to_lowercase()
        )
        .unwrap();
    }
    writeln!(out, "    None\n}}\n").unwrap();
}

/// The `==` and `/=` of `use mpi_f08`'s handle types, as external functions.
fn rust_handle_operators(out: &mut String, handle_types: &[String]) {
    for ty in handle_types {
        let lower = ty.to_lowercase().trim_start_matches("mpi_").to_string();
        for (op, test) in [("eq", "=="), ("ne", "!=")] {
            writeln!(
                out,
                "/// `{op}` of two `TYPE({ty})` handles (`use mpi_f08`'s operator).
///
/// # Safety
/// Both arguments are valid references.
#[no_mangle]
pub unsafe extern \"C\" fn mpiattr_{lower}_{op}_(a: *const Fint, b: *const Fint) -> Fint {{
    // SAFETY: valid references (this function's contract).
    logical(unsafe {{ *a {test} *b }})
}}
"
            )
            .unwrap();
        }
    }
}

/// Everything `src/fortran/shells.rs` includes.
pub fn rust_shells(routines: &[Routine], handle_types: &[String]) -> String {
    let mut out =
        String::from("// Generated by build.rs from fortran/routines.txt: do not edit.\n\n");
    for routine in routines.iter().filter(|r| !r.generated) {
        rust_shell(&mut out, routine);
    }
    rust_predefined_callbacks(&mut out);
    rust_handle_operators(&mut out, handle_types);
    out
}

// ---- Fortran ---------------------------------------------------------------------------

/// Which binding a declaration is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Binding {
    Mpi,
    F08,
}

fn intent(mode: Mode) -> &'static str {
    match mode {
        Mode::In => ", intent(in)",
        Mode::Out => ", intent(out)",
        Mode::InOut => ", intent(inout)",
    }
}

fn callback_interface(kind: Callback, delete: bool) -> &'static str {
    match (kind, delete) {
        (Callback::Comm, false) => "MPI_Comm_copy_attr_function",
        (Callback::Comm, true) => "MPI_Comm_delete_attr_function",
        (Callback::Type, false) => "MPI_Type_copy_attr_function",
        (Callback::Type, true) => "MPI_Type_delete_attr_function",
        (Callback::Win, false) => "MPI_Win_copy_attr_function",
        (Callback::Win, true) => "MPI_Win_delete_attr_function",
        (Callback::Mpi1, false) => "MPI_Copy_function",
        (Callback::Mpi1, true) => "MPI_Delete_function",
    }
}

/// The `use mpi_f08` abstract interface of an MPI_GREQUEST_START callback.
fn grequest_interface(kind: &str) -> &'static str {
    match kind {
        "query" => "MPI_Grequest_query_function",
        "free" => "MPI_Grequest_free_function",
        _ => "MPI_Grequest_cancel_function",
    }
}

/// The declaration lines of one dummy argument.
fn fortran_declaration(
    arg: &Argument,
    binding: Binding,
    c_ptr: bool,
    descriptors: bool,
) -> Vec<String> {
    let n = &arg.name;
    let i = intent(arg.mode);
    let line = match (&arg.ty, binding) {
        (Type::Array(element), _) => {
            let scalar = Argument {
                name: arg.name.clone(),
                mode: arg.mode,
                ty: (**element).clone(),
            };
            let line = fortran_declaration(&scalar, binding, c_ptr, descriptors).remove(0);
            return vec![match (&**element, binding) {
                (Type::Status, Binding::Mpi) => format!("integer{i} :: {n}(MPI_STATUS_SIZE, *)"),
                _ => format!("{line}(*)"),
            }];
        }
        (Type::Choice, Binding::F08) if descriptors => {
            let intent = if arg.mode == Mode::In {
                ", intent(in)"
            } else {
                ""
            };
            return vec![format!("type(*), dimension(..){intent} :: {n}")];
        }
        (Type::Int, _) => format!("integer{i} :: {n}"),
        (Type::Aint, _) => format!("integer(kind=MPI_ADDRESS_KIND){i} :: {n}"),
        (Type::Count, _) => format!("integer(kind=MPI_COUNT_KIND){i} :: {n}"),
        (Type::Baseptr, Binding::Mpi) if !c_ptr => {
            format!("integer(kind=MPI_ADDRESS_KIND){i} :: {n}")
        }
        (Type::Baseptr, _) => format!("type(c_ptr){i} :: {n}"),
        (Type::Logical, _) => format!("logical{i} :: {n}"),
        (Type::Handle(_), Binding::Mpi) => format!("integer{i} :: {n}"),
        (Type::Handle(ty), Binding::F08) => format!("type({ty}){i} :: {n}"),
        (Type::String, _) => format!("character(len=*){i} :: {n}"),
        (Type::Status, Binding::Mpi) => format!("integer{i} :: {n}(MPI_STATUS_SIZE)"),
        (Type::Status, Binding::F08) => format!("type(MPI_Status){i} :: {n}"),
        (Type::Choice, _) | (Type::BufferAddr, Binding::Mpi) => {
            return vec![
                format!("!GCC$ ATTRIBUTES NO_ARG_CHECK :: {n}"),
                format!("type(*), dimension(*) :: {n}"),
            ]
        }
        (Type::BufferAddr, Binding::F08) => format!("type(c_ptr){i} :: {n}"),
        (
            Type::CopyFn(_)
            | Type::DeleteFn(_)
            | Type::UserFn
            | Type::ErrhandlerFn(_)
            | Type::GrequestFn(_),
            Binding::Mpi,
        ) => format!("external :: {n}"),
        (Type::GrequestFn(kind), Binding::F08) => {
            format!("procedure({}) :: {n}", grequest_interface(kind))
        }
        (Type::UserFn, Binding::F08) => format!("procedure(MPI_User_function) :: {n}"),
        (Type::ErrhandlerFn(object), Binding::F08) => {
            format!("procedure({object}_errhandler_function) :: {n}")
        }
        // MPI_KEYVAL_CREATE in `use mpi_f08`: any procedure, as MPICH and Open MPI (which
        // leave the MPI-1 routines out of mpi_f08) accept; programs pass MPI_NULL_COPY_FN,
        // MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN and callbacks of either convention.
        (Type::CopyFn(Callback::Mpi1) | Type::DeleteFn(Callback::Mpi1), Binding::F08) => {
            format!("external :: {n}")
        }
        (Type::CopyFn(kind), Binding::F08) => {
            format!("procedure({}) :: {n}", callback_interface(*kind, false))
        }
        (Type::DeleteFn(kind), Binding::F08) => {
            format!("procedure({}) :: {n}", callback_interface(*kind, true))
        }
    };
    vec![line]
}

/// A free-form line cut after commas into lines of at most 100 columns, continued with `&`
/// (gfortran refuses lines over 132).
fn continued(line: &str) -> String {
    let mut out = String::new();
    let mut current = String::new();
    for (i, piece) in line.split_inclusive(", ").enumerate() {
        if i > 0 && current.len() + piece.len() > 96 {
            out.push_str(current.trim_end());
            out.push_str(" &\n        ");
            current.clear();
        }
        current.push_str(piece);
    }
    out.push_str(&current);
    out
}

/// One interface body.
fn fortran_interface(out: &mut String, routine: &Routine, binding: Binding, c_ptr: bool) {
    let mut name = match binding {
        Binding::Mpi => routine.name.clone(),
        Binding::F08 => routine.f08_name(),
    };
    if c_ptr {
        name.push_str("_CPTR");
    }
    let mut names: Vec<&str> = routine.args.iter().map(|a| a.name.as_str()).collect();
    let ierror = routine.returns.is_none() && !routine.no_ierror;
    if ierror {
        names.push("ierror");
    }
    let head = if let Some(result) = routine.returns {
        format!("{result} function {name}({})", names.join(", "))
    } else if routine.choice && binding == Binding::F08 {
        format!(
            "subroutine {name}({}) bind(C,name=\"{}_f08\")",
            names.join(", "),
            name.to_lowercase()
        )
    } else {
        format!("subroutine {name}({})", names.join(", "))
    };
    writeln!(out, "    {}\n      import", continued(&head)).unwrap();
    for arg in &routine.args {
        let descriptors = routine.choice && binding == Binding::F08;
        for line in fortran_declaration(arg, binding, c_ptr, descriptors) {
            writeln!(out, "      {line}").unwrap();
        }
    }
    match (!ierror, binding) {
        (true, _) => {}
        (false, Binding::Mpi) => writeln!(out, "      integer, intent(out) :: ierror").unwrap(),
        (false, Binding::F08) => {
            writeln!(out, "      integer, optional, intent(out) :: ierror").unwrap()
        }
    }
    let end = if routine.returns.is_some() {
        "function"
    } else {
        "subroutine"
    };
    writeln!(out, "    end {end} {name}").unwrap();
}

/// The kind of each argument's type with default INTEGERs of `fint_bytes` (every other
/// integer kind of the bindings has 8 bytes), by which Fortran tells two specific
/// procedures of one generic name apart.
fn kinds(routine: &Routine, fint_bytes: usize) -> Vec<(Type, usize)> {
    fn kind(ty: &Type, fint_bytes: usize) -> (Type, usize) {
        match ty {
            Type::Int => (Type::Aint, fint_bytes),
            Type::Count => (Type::Aint, 8),
            Type::Array(element) => {
                let (ty, bytes) = kind(element, fint_bytes);
                (Type::Array(Box::new(ty)), bytes)
            }
            other => (other.clone(), 8),
        }
    }
    routine
        .args
        .iter()
        .map(|a| kind(&a.ty, fint_bytes))
        .collect()
}

/// The large-count routine `use mpi_f08` declares beside `routine`, if any: its `_C` form
/// when that differs from it in some argument's kind. With 8-byte default INTEGERs every
/// count is already MPI_COUNT_KIND's size, and the large forms are left out altogether (as
/// MPICH does): two specifics that differ only where the kinds coincide would make the
/// generic name ambiguous.
fn large_partner<'a>(
    routine: &Routine,
    routines: &'a [Routine],
    fint_bytes: usize,
) -> Option<&'a Routine> {
    if fint_bytes == 8 || routine.large {
        return None;
    }
    let name = format!("{}_C", routine.name);
    routines
        .iter()
        .find(|r| r.large && r.name == name)
        .filter(|large| kinds(large, fint_bytes) != kinds(routine, fint_bytes))
}

/// The interfaces of every routine of a binding.
fn fortran_interfaces(out: &mut String, routines: &[Routine], binding: Binding, fint_bytes: usize) {
    out.push_str("  interface\n");
    for routine in routines {
        if binding == Binding::Mpi && routine.has_baseptr()
            || routine.large
            || binding == Binding::F08 && large_partner(routine, routines, fint_bytes).is_some()
        {
            continue;
        }
        fortran_interface(out, routine, binding, false);
    }
    out.push_str("  end interface\n\n");
    if binding == Binding::F08 {
        // A routine with a large-count form: one generic name over both, as the standard
        // gives `use mpi_f08` its large-count routines under the names of the others.
        for routine in routines {
            if let Some(large) = large_partner(routine, routines, fint_bytes) {
                let name = routine.f08_name();
                writeln!(out, "  interface {name}").unwrap();
                fortran_interface(out, routine, binding, false);
                fortran_interface(out, large, binding, false);
                writeln!(out, "  end interface {name}\n").unwrap();
            }
        }
    }
    if binding == Binding::Mpi {
        // MPI_ALLOC_MEM and MPI_WIN_ALLOCATE: generic over the type of baseptr.
        for routine in routines.iter().filter(|r| r.has_baseptr()) {
            writeln!(out, "  interface {}", routine.name).unwrap();
            fortran_interface(out, routine, binding, false);
            fortran_interface(out, routine, binding, true);
            writeln!(out, "  end interface {}\n", routine.name).unwrap();
        }
    }
}

/// Constants that exist only in Fortran, and C constants that Fortran does not have.
fn fortran_only(fint_bytes: usize, constants: &[Constant]) -> Vec<(String, i64)> {
    let c = |name: &str| {
        constants
            .iter()
            .find(|k| k.name == name)
            .unwrap_or_else(|| panic!("include/mpi.h lacks {name}"))
            .value
    };
    vec![
        ("MPI_ADDRESS_KIND".into(), 8),
        ("MPI_OFFSET_KIND".into(), 8),
        ("MPI_COUNT_KIND".into(), 8),
        ("MPI_INTEGER_KIND".into(), fint_bytes as i64),
        ("MPI_STATUS_SIZE".into(), c("MPI_F_STATUS_SIZE")),
        ("MPI_SOURCE".into(), c("MPI_F_SOURCE") + 1),
        ("MPI_TAG".into(), c("MPI_F_TAG") + 1),
        ("MPI_ERROR".into(), c("MPI_F_ERROR") + 1),
    ]
}

/// C names without a Fortran counterpart (the C view of a Fortran status).
fn c_only(name: &str) -> bool {
    matches!(
        name,
        "MPI_F_STATUS_SIZE" | "MPI_F_SOURCE" | "MPI_F_TAG" | "MPI_F_ERROR"
    )
}

/// The integer constants of mpif.h and `use mpi`, in header order, Fortran-only ones first.
fn integer_constants(constants: &[Constant], fint_bytes: usize) -> Vec<(String, i64)> {
    let mut all = fortran_only(fint_bytes, constants);
    all.extend(
        constants
            .iter()
            .filter(|k| !c_only(&k.name))
            .map(|k| (k.name.clone(), k.value)),
    );
    all
}

/// The special variables (MPI-4.1 §19.1.9 "named constants" that are addresses): name,
/// mpif.h/`use mpi` type, `use mpi_f08` type. In mpif.h and `use mpi` each is alone in a
/// COMMON block `/MPIATTR_X/`, in `use mpi_f08` a BIND(C) variable `mpiattr_f08_x`; the library
/// defines the storage of both (src/fortran/conv.rs) and recognises their addresses.
const SPECIAL_VARIABLES: &[(&str, &str, &str)] = &[
    ("MPI_BOTTOM", "INTEGER", "integer"),
    ("MPI_IN_PLACE", "INTEGER", "integer"),
    ("MPI_BUFFER_AUTOMATIC", "INTEGER", "integer"),
    ("MPI_STATUS_IGNORE", "INTEGER", "type(MPI_Status)"),
    ("MPI_STATUSES_IGNORE", "INTEGER", "type(MPI_Status)"),
    ("MPI_ERRCODES_IGNORE", "INTEGER", "integer"),
    // 16 characters: gfortran aligns such a COMMON block to 16 bytes, as the library's.
    ("MPI_ARGV_NULL", "CHARACTER(LEN=16)", "character(len=1)"),
    ("MPI_ARGVS_NULL", "CHARACTER(LEN=16)", "character(len=1)"),
    ("MPI_UNWEIGHTED", "INTEGER", "integer"),
    ("MPI_WEIGHTS_EMPTY", "INTEGER", "integer"),
];

/// The dimensions of a special variable in mpif.h and `use mpi`.
fn special_dims(name: &str) -> &'static str {
    match name {
        "MPI_BOTTOM" | "MPI_IN_PLACE" | "MPI_BUFFER_AUTOMATIC" => "",
        "MPI_STATUS_IGNORE" => "(MPI_STATUS_SIZE)",
        "MPI_STATUSES_IGNORE" => "(MPI_STATUS_SIZE,1)",
        "MPI_ARGVS_NULL" => "(1,1)",
        _ => "(1)",
    }
}

const LOGICAL_CONSTANTS: &[(&str, &str)] = &[
    ("MPI_SUBARRAYS_SUPPORTED", ".FALSE."),
    ("MPI_ASYNC_PROTECTS_NONBLOCKING", ".FALSE."),
];

/// mpif.h: every line starts in column 7 and stays within column 72, and comments start with
/// `!` in column 1, so fixed-form and free-form sources can both include it.
pub fn mpif_h(constants: &[Constant], fint_bytes: usize) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "! mpif.h of mpiattr, generated from include/mpi.h: do not edit.
! For INTEGER of {fint_bytes} bytes. Valid in fixed-form and free-form source."
    )
    .unwrap();
    for (name, value) in integer_constants(constants, fint_bytes) {
        writeln!(
            out,
            "      INTEGER {name}\n      PARAMETER ({name}={value})"
        )
        .unwrap();
    }
    for (name, value) in LOGICAL_CONSTANTS {
        writeln!(
            out,
            "      LOGICAL {name}\n      PARAMETER ({name}={value})"
        )
        .unwrap();
    }
    for (name, declaration, _) in SPECIAL_VARIABLES {
        let block = name.replace("MPI_", "MPIATTR_");
        writeln!(
            out,
            "      {declaration} {name}{dims}\n      COMMON /{block}/ {name}",
            dims = special_dims(name)
        )
        .unwrap();
    }
    out.push_str(
        "      DOUBLE PRECISION MPI_WTIME, MPI_WTICK
      EXTERNAL MPI_WTIME, MPI_WTICK
      INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_ADD, MPI_AINT_DIFF
      EXTERNAL MPI_AINT_ADD, MPI_AINT_DIFF
",
    );
    for (name, _, _) in PREDEFINED_CALLBACKS {
        writeln!(out, "      EXTERNAL {name}").unwrap();
    }
    for line in out.lines() {
        assert!(
            line.len() <= 72,
            "mpif.h line longer than 72 columns: {line}"
        );
    }
    out
}

/// `module mpi`.
pub fn mpi_module(routines: &[Routine], constants: &[Constant], fint_bytes: usize) -> String {
    let mut out = String::from(
        "! module mpi of mpiattr, generated from include/mpi.h and fortran/routines.txt.
module mpi
  use, intrinsic :: iso_c_binding, only: c_ptr
  implicit none
  private :: c_ptr

",
    );
    for (name, value) in integer_constants(constants, fint_bytes) {
        writeln!(out, "  integer, parameter :: {name} = {value}").unwrap();
    }
    for (name, value) in LOGICAL_CONSTANTS {
        writeln!(out, "  logical, parameter :: {name} = {value}").unwrap();
    }
    out.push('\n');
    for (name, declaration, _) in SPECIAL_VARIABLES {
        let block = name.replace("MPI_", "MPIATTR_");
        writeln!(
            out,
            "  {} :: {name}{dims}\n  common /{block}/ {name}",
            declaration.to_lowercase(),
            dims = special_dims(name)
        )
        .unwrap();
    }
    out.push('\n');
    for (name, _, _) in PREDEFINED_CALLBACKS {
        writeln!(out, "  external :: {name}").unwrap();
    }
    out.push('\n');
    fortran_interfaces(&mut out, routines, Binding::Mpi, fint_bytes);
    out.push_str("end module mpi\n");
    out
}

/// The abstract interfaces of the callbacks in `use mpi_f08`.
fn f08_callback_interfaces(out: &mut String) {
    out.push_str("  abstract interface\n");
    for (kind, object, keyval) in [
        (Callback::Comm, "MPI_Comm", "comm_keyval"),
        (Callback::Type, "MPI_Datatype", "type_keyval"),
        (Callback::Win, "MPI_Win", "win_keyval"),
    ] {
        let (old, obj) = match kind {
            Callback::Comm => ("oldcomm", "comm"),
            Callback::Type => ("oldtype", "datatype"),
            _ => ("oldwin", "win"),
        };
        writeln!(
            out,
            "    subroutine {copy}({old}, {keyval}, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
      import
      type({object}) :: {old}
      integer :: {keyval}, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine {copy}
    subroutine {delete}({obj}, {keyval}, attribute_val, extra_state, ierror)
      import
      type({object}) :: {obj}
      integer :: {keyval}, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine {delete}",
            copy = callback_interface(kind, false),
            delete = callback_interface(kind, true),
        )
        .unwrap();
    }
    for object in ["MPI_Comm", "MPI_Win", "MPI_Session", "MPI_File"] {
        let argument = object.trim_start_matches("MPI_").to_lowercase();
        writeln!(
            out,
            "    subroutine {object}_errhandler_function({argument}, error_code)
      import
      type({object}) :: {argument}
      integer :: error_code
    end subroutine {object}_errhandler_function"
        )
        .unwrap();
    }
    writeln!(
        out,
        "    subroutine MPI_User_function(invec, inoutvec, len, datatype)
      import
      type(c_ptr), value :: invec, inoutvec
      integer :: len
      type(MPI_Datatype) :: datatype
    end subroutine MPI_User_function"
    )
    .unwrap();
    writeln!(
        out,
        "    subroutine {query}(extra_state, status, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      type(MPI_Status) :: status
      integer :: ierror
    end subroutine {query}
    subroutine {free}(extra_state, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer :: ierror
    end subroutine {free}
    subroutine {cancel}(extra_state, complete, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      logical :: complete
      integer :: ierror
    end subroutine {cancel}",
        query = grequest_interface("query"),
        free = grequest_interface("free"),
        cancel = grequest_interface("cancel"),
    )
    .unwrap();
    writeln!(
        out,
        "    subroutine MPI_Copy_function(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
      import
      type(MPI_Comm) :: oldcomm
      integer :: keyval, extra_state, attribute_val_in, attribute_val_out, ierror
      logical :: flag
    end subroutine MPI_Copy_function
    subroutine MPI_Delete_function(comm, keyval, attribute_val, extra_state, ierror)
      import
      type(MPI_Comm) :: comm
      integer :: keyval, attribute_val, extra_state, ierror
    end subroutine MPI_Delete_function"
    )
    .unwrap();
    out.push_str("  end interface\n\n");
}

/// `module mpi_f08`.
pub fn mpi_f08_module(
    routines: &[Routine],
    constants: &[Constant],
    handle_types: &[String],
    fint_bytes: usize,
) -> String {
    let c_kind = if fint_bytes == 8 {
        "c_int64_t"
    } else {
        "c_int"
    };
    let mut out = format!(
        "! module mpi_f08 of mpiattr, generated from include/mpi.h and fortran/routines.txt.
module mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, {c_kind}
  implicit none
  private :: c_ptr, {c_kind}

"
    );
    for ty in handle_types {
        writeln!(
            out,
            "  type, bind(C) :: {ty}\n    integer({c_kind}) :: MPI_VAL\n  end type {ty}"
        )
        .unwrap();
    }
    writeln!(
        out,
        "  type, bind(C) :: MPI_Status
    integer({c_kind}) :: MPI_SOURCE, MPI_TAG, MPI_ERROR
    integer({c_kind}), private :: mpiattr_reserved(5)
  end type MPI_Status
"
    )
    .unwrap();
    for (name, value) in integer_constants(constants, fint_bytes) {
        if matches!(name.as_str(), "MPI_SOURCE" | "MPI_TAG" | "MPI_ERROR") {
            continue; // components of TYPE(MPI_Status) here
        }
        match constants
            .iter()
            .find(|k| k.name == name)
            .and_then(|k| k.handle_type.as_ref())
        {
            Some(ty) => writeln!(out, "  type({ty}), parameter :: {name} = {ty}({value})"),
            None => writeln!(out, "  integer, parameter :: {name} = {value}"),
        }
        .unwrap();
    }
    for (name, value) in LOGICAL_CONSTANTS {
        writeln!(out, "  logical, parameter :: {name} = {value}").unwrap();
    }
    out.push('\n');
    for (name, _, f08) in SPECIAL_VARIABLES {
        let symbol = name.replace("MPI_", "mpiattr_f08_").to_lowercase();
        let dims = match *name {
            "MPI_STATUS_IGNORE" | "MPI_BOTTOM" | "MPI_IN_PLACE" | "MPI_BUFFER_AUTOMATIC" => "",
            "MPI_ARGVS_NULL" => "(1, 1)",
            _ => "(1)",
        };
        writeln!(
            out,
            "  {f08}, bind(C, name=\"{symbol}\"), target :: {name}{dims}"
        )
        .unwrap();
    }
    out.push('\n');
    f08_callback_interfaces(&mut out);
    for (name, kind, action) in PREDEFINED_CALLBACKS {
        let interface = callback_interface(*kind, *action == "null_delete");
        writeln!(out, "  procedure({interface}) :: {name}").unwrap();
    }
    out.push('\n');
    for (op, suffix) in [("==", "eq"), ("/=", "ne")] {
        writeln!(out, "  interface operator({op})").unwrap();
        for ty in handle_types {
            let lower = ty.to_lowercase().trim_start_matches("mpi_").to_string();
            writeln!(
                out,
                "    logical function mpiattr_{lower}_{suffix}(a, b)
      import
      type({ty}), intent(in) :: a, b
    end function mpiattr_{lower}_{suffix}"
            )
            .unwrap();
        }
        writeln!(out, "  end interface operator({op})\n").unwrap();
    }
    fortran_interfaces(&mut out, routines, Binding::F08, fint_bytes);
    out.push_str("end module mpi_f08\n");
    out
}
