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
    /// An array's length: the parameter giving it, `*` (as the array before), or `-`.
    pub length: String,
    /// The data's flag `asynchronous`: a nonblocking call uses the buffer after returning.
    pub asynchronous: bool,
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
                    length: fields[5].to_string(),
                    asynchronous: fields[8].split(' ').any(|f| f == "asynchronous"),
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
    /// Whether the entry point's last step is a jump to `threaded_X`, which tries
    /// `<body>_threaded` (the fast path under MPI_THREAD_MULTIPLE, kept out of the entry
    /// point, whose single-thread fast path would otherwise keep more registers) and then
    /// jumps to the whole function. `<body>_fast` then passes on the universe it found open,
    /// if any, when it declines, so that the threaded path does not look it up again.
    pub threaded: bool,
    /// Whether the large-count form `MPI_X_c` is implemented too (body `<body>_c`).
    pub large: bool,
    /// Output arguments the body decodes itself (to keep an order of checks).
    pub raw: Vec<String>,
    /// The `int` the function returns is a value, not an error code (`MPI_Comm_toint`).
    pub value: bool,
    /// How its Fortran routine is made.
    pub fortran: Fortran,
    /// `runs=MPI_Y`: no hand-written body; [`forwarding_bodies`] writes it, running MPI_Y's
    /// body through the chapter's helper.
    pub runs: Option<String>,
}

/// How the Fortran routine of a function of `bindings/functions.txt` is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fortran {
    /// Generated: it converts its arguments and calls the C body (the default).
    Generated,
    /// `fortran=hand`: listed in `fortran/routines.txt`, body in src/fortran/routines.rs.
    Hand,
    /// `fortran=none`: no Fortran routine (the data has none: c2f, f2c).
    None,
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

/// Reads `bindings/functions.txt`: `MPI_X chapter on=ARG|self|world [fast] [threaded] [large]
/// [raw=ARG,...] [value] [fortran=hand|none] [runs=MPI_Y]`, `#` comments.
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
            threaded: false,
            large: false,
            raw: Vec::new(),
            value: false,
            fortran: Fortran::Generated,
            runs: None,
        };
        for word in words {
            match word {
                "fast" => annotation.fast = true,
                "threaded" => annotation.threaded = true,
                "fortran=hand" => annotation.fortran = Fortran::Hand,
                "fortran=none" => annotation.fortran = Fortran::None,
                "large" => annotation.large = true,
                "value" => annotation.value = true,
                "on=self" => annotation.on = None,
                other => match (
                    other.strip_prefix("on="),
                    other.strip_prefix("raw="),
                    other.strip_prefix("runs="),
                ) {
                    (Some(arg), _, _) => annotation.on = Some(arg.to_string()),
                    (_, Some(args), _) => {
                        annotation.raw = args.split(',').map(str::to_string).collect()
                    }
                    (_, _, Some(blocking)) => annotation.runs = Some(blocking.to_string()),
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

/// The parameters of `fn <body>(...)` in a chapter's source, as written (`name`, `type`),
/// or `None` if the source has no such function.
fn rust_params(source: &str, body: &str) -> Option<Vec<(String, String)>> {
    let head = format!("fn {body}(");
    let start = source.match_indices(&head).find_map(|(at, _)| {
        let before = source[..at].chars().next_back();
        (before.is_none() || before.is_some_and(char::is_whitespace)).then_some(at + head.len())
    })?;
    let mut params = Vec::new();
    let mut current = String::new();
    let (mut parens, mut angles) = (1usize, 0usize);
    let mut chars = source[start..].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => parens += 1,
            ')' => {
                parens -= 1;
                if parens == 0 {
                    break;
                }
            }
            '-' if chars.peek() == Some(&'>') => {
                current.push(c);
                current.push(chars.next().unwrap());
                continue;
            }
            '<' => angles += 1,
            '>' => angles = angles.saturating_sub(1),
            ',' if parens == 1 && angles == 0 => {
                params.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    params.push(current);
    Some(
        params
            .iter()
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (name, ty) = p.split_once(':').unwrap_or((p, ""));
                let name = name.trim();
                let name = name.strip_prefix("mut ").unwrap_or(name);
                (name.trim().to_string(), ty.trim().to_string())
            })
            .collect(),
    )
}

/// A Rust type as text, without the paths the chapters import (`std::ffi::c_int` and
/// `c_int` are the same), its white space folded.
fn same_type(ty: &str) -> String {
    let mut ty = ty.split_whitespace().collect::<Vec<_>>().join(" ");
    for path in [
        "std::ffi::",
        "crate::abi::",
        "crate::ffi::",
        "crate::engine::",
        "super::",
    ] {
        ty = ty.replace(path, "");
    }
    ty
}

/// The Rust type a body of the chapters takes a parameter as: [`param_type`], or `&mut
/// Out<T>` for an output the entry point decodes.
fn body_param_type(param: &Param, raw: &[String]) -> String {
    match decoding(param, raw) {
        Decoded::Raw => param_type(param),
        Decoded::Out(ty) => format!("&mut crate::ffi::Out<{ty}>"),
    }
}

/// The helper of a chapter whose functions are `runs=` lines: its one `fn` whose last
/// parameter is `run: impl FnOnce() -> Result<()>` (`started`, `planned`), with its other
/// parameters.
fn runner(chapter: &str, source: &str) -> (String, Vec<(String, String)>) {
    let mut found = Vec::new();
    for line in source.lines() {
        let Some(at) = line.find("fn ") else { continue };
        let rest = &line[at + 3..];
        let Some(name) = rest
            .split('(')
            .next()
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        else {
            continue;
        };
        if let Some(mut params) = rust_params(source, name) {
            if params.last().is_some_and(|(n, t)| {
                n == "run" && same_type(t) == same_type("impl FnOnce() -> Result<()>")
            }) {
                params.pop();
                if !found.iter().any(|(f, _): &(String, _)| f == name) {
                    found.push((name.to_string(), params));
                }
            }
        }
    }
    assert!(
        found.len() == 1,
        "src/capi/{chapter}.rs: functions.txt has `runs=` lines there, so it needs exactly one \
         helper `fn NAME(args..., run: impl FnOnce() -> Result<()>)`; found {:?}",
        found.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    found.pop().unwrap()
}

/// The name of the file under OUT_DIR that holds the generated bodies of a chapter; the
/// chapter's source includes it.
pub fn bodies_file(chapter: &str) -> String {
    format!("{chapter}_bodies.rs")
}

/// The bodies of the `runs=MPI_Y` functions of `bindings/functions.txt`, by chapter: for
/// `MPI_X chapter ... runs=MPI_Y`, `fn x` (and `fn x_c` if `large`) in the chapter's module,
/// which calls the chapter's helper ([`runner`]) with the arguments it names and a closure
/// running MPI_Y's body (`fn y`, `y_c`, in MPI_Y's chapter) with the others, in order. MPI_X's
/// arguments must be MPI_Y's, in the same order and with the same types, plus those only the
/// helper takes (`request`; `info` and `request`), both in the standard's data and in the
/// bodies' Rust signatures: the build stops otherwise, naming the difference. The body is an
/// `unsafe fn` exactly when MPI_Y's is.
pub fn forwarding_bodies(
    api: &BTreeMap<String, Procedure>,
    annotations: &[Annotation],
    sources: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for annotation in annotations {
        let Some(blocking_name) = &annotation.runs else {
            continue;
        };
        let name = &annotation.name;
        let chapter = &annotation.chapter;
        let fail = |what: String| -> ! {
            panic!("bindings/functions.txt: {name} runs={blocking_name}: {what}")
        };
        if annotation.fast || annotation.threaded || annotation.value || !annotation.raw.is_empty()
        {
            fail("`fast`, `threaded`, `value` and `raw=` do not go with `runs=`".to_string());
        }
        let blocking = annotations
            .iter()
            .find(|a| &a.name == blocking_name)
            .unwrap_or_else(|| fail(format!("{blocking_name} is not a line of functions.txt")));
        if blocking.runs.is_some() {
            fail(format!("{blocking_name} is itself a `runs=` line"));
        }
        if annotation.large && !blocking.large {
            fail(format!(
                "{name} is `large` but {blocking_name} is not: its `_c` body is needed"
            ));
        }
        let procedure = api
            .get(name)
            .unwrap_or_else(|| fail(format!("{name} is not in include/mpi-api.txt")));
        let blocking_procedure = api
            .get(blocking_name)
            .unwrap_or_else(|| fail(format!("{blocking_name} is not in include/mpi-api.txt")));
        let source = sources.get(chapter).map(String::as_str).unwrap_or_default();
        let blocking_source = sources
            .get(&blocking.chapter)
            .map(String::as_str)
            .unwrap_or_default();
        let (helper, helper_params) = runner(chapter, source);
        let helper_docs = doc_of(source, &helper);
        let text = out.entry(chapter.clone()).or_insert_with(|| {
            String::from(
                "// Generated by build.rs (bindings/generate_c.rs, `forwarding_bodies`) from the \
                 `runs=` lines of bindings/functions.txt: do not edit.\n",
            )
        });
        let forms: &[bool] = if annotation.large {
            &[false, true]
        } else {
            &[false]
        };
        for &large in forms {
            let suffix = if large { "_c" } else { "" };
            let form = format!("{name}{suffix}");
            let body = format!("{}{suffix}", annotation.body());
            let blocking_form = format!("{blocking_name}{suffix}");
            let blocking_body = format!("{}{suffix}", blocking.body());
            let params = form_params(procedure, large);
            let blocking_params = form_params(blocking_procedure, large);
            // The arguments only the helper takes, and those that go to MPI_Y's body.
            let (extra, passed): (Vec<&Param>, Vec<&Param>) = params
                .iter()
                .partition(|p| !blocking_params.iter().any(|b| b.name == p.name));
            for p in &extra {
                if !helper_params.iter().any(|(h, _)| h == &p.name) {
                    fail(format!(
                        "{form}'s argument `{}` is not {blocking_form}'s, and `{helper}` in \
                         src/capi/{chapter}.rs does not take it",
                        p.name
                    ));
                }
            }
            let shown = |list: &[&Param]| {
                list.iter()
                    .map(|p| format!("{}: {}", p.name, p.c_type))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let blocking_refs: Vec<&Param> = blocking_params.iter().collect();
            let same_data = passed.len() == blocking_refs.len()
                && passed
                    .iter()
                    .zip(&blocking_refs)
                    .all(|(a, b)| a.name == b.name && a.c_type == b.c_type);
            if !same_data {
                fail(format!(
                    "the standard's arguments differ: {form} without `{}` is ({}), but \
                     {blocking_form} is ({})",
                    extra
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join("`, `"),
                    shown(&passed),
                    shown(&blocking_refs)
                ));
            }
            // The Rust bodies: MPI_Y's takes exactly these arguments, in this order.
            let typed: Vec<(String, String)> = params
                .iter()
                .map(|p| (p.name.clone(), body_param_type(p, &annotation.raw)))
                .collect();
            let expected: Vec<(String, String)> = passed
                .iter()
                .map(|p| (p.name.clone(), body_param_type(p, &blocking.raw)))
                .collect();
            let written = rust_params(blocking_source, &blocking_body).unwrap_or_else(|| {
                fail(format!(
                    "src/capi/{}.rs has no `fn {blocking_body}(`",
                    blocking.chapter
                ))
            });
            let same_rust = written.len() == expected.len()
                && written
                    .iter()
                    .zip(&expected)
                    .all(|((n, t), (en, et))| n == en && same_type(t) == same_type(et));
            if !same_rust {
                let list = |l: &[(String, String)]| {
                    l.iter()
                        .map(|(n, t)| format!("{n}: {}", same_type(t)))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                fail(format!(
                    "`fn {blocking_body}` in src/capi/{}.rs takes ({}), but {form} passes ({}): \
                     the blocking body must take {blocking_form}'s arguments in the standard's \
                     order",
                    blocking.chapter,
                    list(&written),
                    list(&expected)
                ));
            }
            for (h, ty) in &helper_params {
                match typed.iter().find(|(n, _)| n == h) {
                    Some((_, t)) if same_type(t) == same_type(ty) => {}
                    Some((_, t)) => fail(format!(
                        "`{helper}` takes `{h}: {}`, but {form}'s `{h}` is `{}`",
                        same_type(ty),
                        same_type(t)
                    )),
                    None => fail(format!("`{helper}` takes `{h}`, which {form} has not")),
                }
            }
            let unsafe_body = is_unsafe(blocking_source, &blocking_body);
            let call = format!(
                "super::{}::{blocking_body}({})",
                blocking.chapter,
                expected
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let run = if unsafe_body {
                format!(
                    "|| {{\n        // SAFETY: {blocking_form}'s body needs what the entry point's \
                     contract gives (every\n        // pointer argument NULL or valid for the \
                     accesses the standard describes).\n        unsafe {{ {call} }}\n    }}"
                )
            } else {
                format!("|| {call}")
            };
            let helper_args: Vec<&str> = helper_params.iter().map(|(h, _)| h.as_str()).collect();
            let extra_names: Vec<&str> = extra.iter().map(|p| p.name.as_str()).collect();
            write!(
                text,
                r#"
/// {form}: `{chapter}::{helper}` over the body of {blocking_form}
/// (`{blocking_chapter}::{blocking_body}`), which gets the same arguments but {extra} (a
/// `runs=` line of bindings/functions.txt). `{helper}`:
///
{helper_docs}#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) {unsafety}fn {body}({typed}) -> crate::engine::Result<()> {{
    {helper}({helper_args}, {run})
}}
"#,
                blocking_chapter = blocking.chapter,
                extra = match extra_names.split_last() {
                    Some((last, [])) => format!("`{last}`"),
                    Some((last, rest)) => format!("`{}` and `{last}`", rest.join("`, `")),
                    None => "none".to_string(),
                },
                helper_docs = helper_docs
                    .iter()
                    .map(|l| if l.is_empty() {
                        "///\n".to_string()
                    } else {
                        format!("/// {l}\n")
                    })
                    .collect::<String>(),
                unsafety = if unsafe_body { "unsafe " } else { "" },
                typed = typed
                    .iter()
                    .map(|(n, t)| format!("{n}: {t}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                helper_args = helper_args.join(", "),
            )
            .unwrap();
        }
    }
    out
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
/// handle of the argument's kind for `c2f`, the null handle for `f2c`, 0.0 for a double, 0
/// for an address (`MPI_Aint_add`).
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
        "MPI_Aint" => "0".to_string(),
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

/// The C parameters of a procedure, or of its large-count form. The `_c` form has the
/// large-count types, and may have parameters the other lacks (MPI_Type_get_contents_c's
/// `max_large_counts`): its parameters are those with a large-count type.
fn form_params(procedure: &Procedure, large: bool) -> Vec<Param> {
    if large {
        procedure
            .params
            .iter()
            .filter(|p| p.c_large != "-")
            .map(|p| Param {
                c_type: p.c_large.clone(),
                ..p.clone()
            })
            .collect()
    } else {
        procedure.c_params().cloned().collect()
    }
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
        let params = form_params(procedure, large);
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
                        "            // SAFETY: an MPI {} argument: NULL or valid{note}.\n            let mut {p} = unsafe {{ crate::ffi::Out::new({pointer}, \"{p}\") }}?;",
                        param.direction
                    )
                    .unwrap();
                    call_args.push(format!("&mut {p}"));
                }
            }
        }
        // How the entry point and `threaded_X` call the fast path: in an `unsafe` block, with
        // its SAFETY line, if the body's fast path is an `unsafe fn`.
        let (safety, open, close) = if is_unsafe(source, &format!("{body}_fast")) {
            (
                "// SAFETY: the fast path's contract is this function's.\n    ",
                "unsafe { ",
                " }",
            )
        } else {
            ("", "", "")
        };
        let fast = if annotation.threaded {
            format!(
                "    // The common case first, without any call; what it declines goes on with the\n    // universe it found open, if any.\n    {safety}let universe = match {open}{chapter}::{body}_fast({names}){close} {{\n        Ok(code) => return code,\n        Err(universe) => universe,\n    }};\n",
                names = names.join(", "),
            )
        } else if annotation.fast {
            format!(
                "    // The common case first, without any call; `None` goes the whole way.\n    {safety}if let Some(code) = {open}{chapter}::{body}_fast({}){close} {{\n        return code;\n    }}\n",
                names.join(", "),
            )
        } else {
            String::new()
        };
        // With `threaded`, the entry point's last step is a jump to `threaded_{name}`, a leaf
        // that tries the fast path under MPI_THREAD_MULTIPLE, with the universe the entry
        // point found (its last argument, so that the others stay in their registers), and
        // jumps to the whole function.
        let (threaded, last) = if annotation.threaded {
            (
                format!(
                    r#"
/// `{name}` under MPI_THREAD_MULTIPLE, in the universe the entry point found open: the
/// common case without any call, else the whole function. A function of its own, so that
/// neither the entry point nor the whole function keeps more registers for it.
///
/// # Safety
/// As for `{pmpi}`.
#[inline(never)]
#[allow(clippy::too_many_arguments, non_snake_case)]
unsafe extern "C" fn threaded_{name}({typed}, universe: Option<&'static crate::engine::Universe>) -> std::ffi::c_int {{
    {safety}if let Some(code) = {open}{chapter}::{body}_threaded({names}, universe){close} {{
        return code;
    }}
    // SAFETY: the same contract as this function's.
    unsafe {{ whole_{name}({names}) }}
}}
"#,
                    typed = typed.join(", "),
                    names = names.join(", "),
                ),
                format!("threaded_{name}({}, universe)", names.join(", ")),
            )
        } else {
            (String::new(), format!("whole_{name}({})", names.join(", ")))
        };
        write!(
            out,
            r#"
/// `{name}` whole: argument checks, the engine, the error handler. `extern "C"` (it
/// catches every panic), so that no unwinding path stops the entry points from jumping to it
/// as their last step.
///
/// # Safety
/// As for `{pmpi}`.
#[inline(never)]
#[allow(clippy::too_many_arguments, non_snake_case)]
unsafe extern "C" fn whole_{name}({typed}) -> std::ffi::c_int {{
    crate::ffi::call(
        "{name}",
        move || {target},
        move |line: &mut String| {{
            let args: &[(&str, &dyn crate::ffi::Arg)] = &[{describe}];
            crate::ffi::args::describe_all(line, args);
        }},
        || -> crate::engine::Result<()> {{
{decode}            {body_call}
        }},
    )
}}

/// The body of `{name}` and `{pmpi}`, inlined into each (so that neither reaches the other
/// through the symbol table).
///
/// # Safety
/// As for `{pmpi}`.
#[inline(always)]
#[allow(clippy::too_many_arguments, non_snake_case)]
unsafe fn entry_{name}({typed}) -> std::ffi::c_int {{
{fast}    // SAFETY: the same contract as this function's.
    unsafe {{ {last} }}
}}
{threaded}
{doc}///
/// # Safety
/// Every pointer argument is NULL or valid for the accesses the MPI standard describes.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub unsafe extern "C" fn {pmpi}({typed}) -> std::ffi::c_int {{
    // SAFETY: the same contract as this function's.
    unsafe {{ entry_{name}({names}) }}
}}

{doc}///
/// # Safety
/// As for the `PMPI_` entry point (the same body).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn {name}({typed}) -> std::ffi::c_int {{
    // SAFETY: the same contract as the PMPI_ function, which the caller upholds.
    unsafe {{ entry_{name}({names}) }}
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
                    "// SAFETY: the body's contract is this function's.\n            unsafe {{ {chapter}::{body}({}) }}",
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
        // The detach routines' `void *` output: the detached buffer's address.
        _ if param.kind == "C_BUFFER2" => "bufaddr".to_string(),
        // MPI_GREQUEST_START's callbacks: `grequest_fn query` ...
        "PROCEDURE" if procedure.name == "MPI_Grequest_start" => {
            format!("grequest_fn {}", param.name.trim_end_matches("_fn"))
        }
        "INTEGER" => "int".to_string(),
        "INTEGER(KIND=MPI_ADDRESS_KIND)" => "aint".to_string(),
        "INTEGER(KIND=MPI_OFFSET_KIND)" => "offset".to_string(),
        "INTEGER(KIND=MPI_COUNT_KIND)" => "count".to_string(),
        "LOGICAL" => "logical".to_string(),
        "CHARACTER" => "string".to_string(),
        "TYPE(*), DIMENSION(..)" => "choice".to_string(),
        "TYPE(C_PTR)" => "baseptr".to_string(),
        "PROCEDURE" if param.name == "user_fn" => "user_fn".to_string(),
        "PROCEDURE" if param.name.ends_with("errhandler_fn") => {
            let object = param.name.trim_end_matches("_errhandler_fn");
            format!("errhandler_fn {object}")
        }
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
    // `const char[]` (MPI_Pack_external's `datarep`) is one string, as `char*` is.
    let base = if param.c_type.ends_with("[]") && base != "string" {
        format!("{base}[]")
    } else {
        base
    };
    match param.direction.as_str() {
        "in" => base,
        direction => format!("{direction} {base}"),
    }
}

/// The routine line of one procedure: `MPI_X(arg: [out|inout] type, ...) [-> double]`.
fn fortran_signature(procedure: &Procedure, name: &str) -> String {
    let args: Vec<String> = procedure
        .params
        .iter()
        .filter(|p| fortran_param(p))
        .map(|p| format!("{}: {}", p.name, fortran_type(procedure, p, &p.f08)))
        .collect();
    let returns = match procedure.c_return.as_str() {
        "double" => " -> double",
        "MPI_Aint" => " -> aint",
        _ => "",
    };
    format!("{name}({}){returns}", args.join(", "))
}

/// Whether a parameter is one of the Fortran routine's (not IERROR, which every routine
/// ends with; not the C-only ones; not MPI_Pcontrol's `...`).
fn fortran_param(param: &Param) -> bool {
    param.name != "ierror"
        && !param.fortran_suppressed
        && param.kind != "VARARGS"
        && !large_only(param)
}

/// A parameter of the large-count form only (MPI_Type_get_envelope's `num_large_counts`):
/// no C type in the other form, whose Fortran routine does not have it either.
fn large_only(param: &Param) -> bool {
    param.c_type == "-" && param.c_large != "-"
}

/// Whether a procedure's Fortran binding ends with IERROR (all but MPI_PCONTROL's).
fn has_ierror(procedure: &Procedure) -> bool {
    procedure.params.iter().any(|p| p.name == "ierror")
}

/// Whether a procedure has a Fortran binding in the data.
fn has_fortran(procedure: &Procedure) -> bool {
    !procedure.flags.iter().any(|f| f == "no-f90")
}

/// The functions of `bindings/functions.txt` whose Fortran routine is generated: every one
/// with a Fortran binding in the data, unless marked `fortran=hand` or `fortran=none`.
pub fn generated_fortran<'a>(
    api: &'a BTreeMap<String, Procedure>,
    annotations: &'a [Annotation],
) -> impl Iterator<Item = (&'a Annotation, &'a Procedure)> {
    annotations.iter().filter_map(|annotation| {
        let procedure = api.get(&annotation.name)?;
        (annotation.fortran == Fortran::Generated && has_fortran(procedure))
            .then_some((annotation, procedure))
    })
}

/// The large-count (`_c`) form of a procedure as a procedure of its own: `MPI_X_c`, with
/// the parameters that have a large-count C type, that type as its C type, and as its
/// `use mpi_f08` type INTEGER(KIND=MPI_COUNT_KIND) where the C type became `MPI_Count`
/// (the standard's large-count `use mpi_f08` bindings mirror C's).
fn large_form(procedure: &Procedure) -> Procedure {
    let base = |c: &str| {
        c.trim_start_matches("const ")
            .trim_end_matches("[]")
            .trim_end_matches('*')
            .trim()
            .to_string()
    };
    Procedure {
        name: format!("{}_c", procedure.name),
        c_return: procedure.c_return.clone(),
        flags: procedure.flags.clone(),
        params: procedure
            .params
            .iter()
            .filter(|p| p.c_large != "-" || p.name == "ierror")
            .map(|p| {
                let widened = p.c_large != "-" && base(&p.c_large) == "MPI_Count";
                Param {
                    c_type: if p.c_large == "-" {
                        p.c_type.clone()
                    } else {
                        p.c_large.clone()
                    },
                    f08: if widened && base(&p.c_type) != "MPI_Count" {
                        "INTEGER(KIND=MPI_COUNT_KIND)".to_string()
                    } else {
                        p.f08.clone()
                    },
                    ..p.clone()
                }
            })
            .collect(),
    }
}

/// The `use mpi_f08` large-count routines generated over the `_c` bodies: one for every
/// function of `bindings/functions.txt` marked `large` whose Fortran routine exists
/// (generated or by hand), but those taking a procedure (MPI_Op_create_c's user function
/// in Fortran's convention is not written). Each comes with the annotation of its `_c` form
/// (body `x_c`).
pub fn large_fortran(
    api: &BTreeMap<String, Procedure>,
    annotations: &[Annotation],
) -> Vec<(Annotation, Procedure)> {
    annotations
        .iter()
        .filter(|a| a.large && a.fortran != Fortran::None)
        .filter_map(|annotation| {
            let procedure = api.get(&annotation.name)?;
            let callbacks = procedure.params.iter().any(|p| p.f08 == "PROCEDURE");
            (has_fortran(procedure) && !callbacks).then(|| {
                let large = large_form(procedure);
                let annotation = Annotation {
                    name: large.name.clone(),
                    large: false,
                    fast: false,
                    fortran: Fortran::Generated,
                    ..annotation.clone()
                };
                (annotation, large)
            })
        })
        .collect()
}

/// Expands `fortran/routines.txt` (the hand-written routines, one per line: `MPI_X [on
/// world] [fast]`) and the generated routines of `bindings/functions.txt` into the
/// signatures `fortran/generate.rs` reads (`MPI_X(arg: [out|inout] type, ...) [-> double]
/// [on world] [fast] [generated]`), every argument and type taken from the data. A function
/// of functions.txt is in routines.txt exactly when it is marked `fortran=hand`.
pub fn fortran_routines(
    api: &BTreeMap<String, Procedure>,
    hand: &str,
    annotations: &[Annotation],
) -> String {
    let mut out = String::new();
    let mut listed = Vec::new();
    for line in hand.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, options) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let procedure = api
            .values()
            .find(|p| p.name.eq_ignore_ascii_case(name) && has_fortran(p))
            .unwrap_or_else(|| panic!("fortran/routines.txt: {name} has no Fortran binding"));
        if let Some(annotation) = annotations.iter().find(|a| a.name == procedure.name) {
            assert!(
                annotation.fortran == Fortran::Hand,
                "fortran/routines.txt lists {name}, whose Fortran routine bindings/functions.txt \
                 generates: mark it `fortran=hand` there, or remove it here and from \
                 src/fortran/routines.rs"
            );
        }
        listed.push(procedure.name.clone());
        let options = options.trim();
        let space = if options.is_empty() { "" } else { " " };
        writeln!(
            out,
            "{}{space}{options}",
            fortran_signature(procedure, name)
        )
        .unwrap();
    }
    for annotation in annotations {
        assert!(
            annotation.fortran != Fortran::Hand || listed.contains(&annotation.name),
            "bindings/functions.txt: {} is marked fortran=hand but fortran/routines.txt lacks it",
            annotation.name
        );
    }
    for (annotation, procedure) in generated_fortran(api, annotations) {
        let name = annotation.name.to_uppercase();
        let choice = if has_f08_symbol(procedure) {
            " choice"
        } else {
            ""
        };
        writeln!(
            out,
            "{} generated{choice}{no_ierror}",
            fortran_signature(procedure, &name),
            no_ierror = if has_ierror(procedure) {
                ""
            } else {
                " no-ierror"
            }
        )
        .unwrap();
    }
    // The large-count forms: `use mpi_f08` only, under the generic name of MPI_X.
    for (_, procedure) in large_fortran(api, annotations) {
        let choice = if has_f08_symbol(&procedure) {
            " choice"
        } else {
            ""
        };
        writeln!(
            out,
            "{} generated{choice} large",
            fortran_signature(&procedure, &procedure.name.to_uppercase())
        )
        .unwrap();
    }
    out
}

fn is_choice(param: &Param) -> bool {
    param.kind == "BUFFER" && param.f08 == "TYPE(*), DIMENSION(..)"
}

/// Whether a routine's `use mpi_f08` form has a symbol of its own (`mpi_x_f08`, BIND(C)):
/// one with choice buffers (C descriptors), or with a detached buffer's address (a
/// TYPE(C_PTR) there, an unused `<type> BUFFER_ADDR(*)` in mpif.h and `use mpi`).
fn has_f08_symbol(procedure: &Procedure) -> bool {
    procedure
        .params
        .iter()
        .any(|p| is_choice(p) || p.kind == "C_BUFFER2")
}

// ---- Fortran routines from the C bodies ------------------------------------------------

/// The handle types of the C API.
const HANDLE_TYPES: &[&str] = &[
    "MPI_Comm",
    "MPI_Datatype",
    "MPI_Win",
    "MPI_Request",
    "MPI_Info",
    "MPI_Errhandler",
    "MPI_Op",
    "MPI_Group",
    "MPI_Session",
    "MPI_Message",
    "MPI_File",
];

/// How a generated Fortran routine reads one parameter of the C body.
enum Reading {
    /// A scalar through a `conv::Conv` (`Int`, `Logical`, `Wide<T>`, `Handle<H>`) whose
    /// Fortran side is `fortran` (`Fint`, `i64`).
    Scalar {
        conv: String,
        fortran: &'static str,
    },
    /// An array of such scalars, `len` the C expression of its length. `per_process`: one
    /// entry per process of the communicator (a v or w collective's counts, displacements
    /// and datatypes), read leniently because an in-place call leaves some unset.
    Array {
        conv: String,
        fortran: &'static str,
        len: String,
        per_process: bool,
    },
    /// A status, or an array of `len` statuses.
    Status {
        len: Option<String>,
    },
    Choice,
    Text,
    /// The detach routines' `buffer_addr`: the address of a `void *` the body writes.
    /// mpif.h and `use mpi` declare it `<type> BUFFER_ADDR(*)` and leave it unused (MPI-4.1
    /// §3.6.1); `use mpi_f08` passes a TYPE(C_PTR), which gets the address.
    BufferAddr,
}

/// The length of a per-process array in a generated Fortran routine.
const PER_PROCESS: &str = "crate::fortran::conv::PROCESSES";

fn unsupported(procedure: &Procedure, param: &Param) -> ! {
    panic!(
        "bindings/functions.txt: {}: no generated Fortran conversion for `{}` ({} {} {}); \
         mark the function `fortran=hand` and write its routine in src/fortran/routines.rs \
         (callbacks in Fortran's convention are such), or `fortran=none` for no Fortran \
         routine yet, or teach bindings/generate_c.rs (`reading`) the conversion",
        procedure.name, param.name, param.kind, param.direction, param.c_type
    )
}

fn reading(procedure: &Procedure, param: &Param, previous_len: &Option<String>) -> Reading {
    let c = param.c_type.trim();
    let c = c.strip_prefix("const ").unwrap_or(c).trim();
    // `int[][3]` (MPI_Group_range_incl's ranges): `n` triplets, an array of 3 * n.
    let triplets = c.ends_with("[][3]");
    let c = c.strip_suffix("[3]").unwrap_or(c);
    let (base, array) = match c.strip_suffix("[]") {
        Some(base) => (base.trim(), true),
        None => (c.trim_end_matches('*').trim(), false),
    };
    let pointers = c.len() - c.trim_end_matches('*').len();
    if is_choice(param) {
        return Reading::Choice;
    }
    if param.kind == "C_BUFFER2" && param.direction == "out" {
        return Reading::BufferAddr;
    }
    // `char*` or `const char[]` (MPI_Pack_external's datarep): a CHARACTER(LEN=*).
    if param.kind == "STRING"
        && base == "char"
        && (!array && pointers == 1 || array && pointers == 0)
    {
        return Reading::Text;
    }
    let scalar = match base {
        "int" if param.kind == "LOGICAL" => {
            Some(("crate::fortran::conv::Logical".to_string(), "Fint"))
        }
        // Which requests completed (MPI_Waitany ... MPI_Request_get_status_some): indices
        // count from 1 in Fortran.
        "int"
            if param.kind == "INDEX"
                && procedure
                    .params
                    .iter()
                    .any(|p| p.name == "array_of_requests") =>
        {
            Some(("crate::fortran::conv::RequestIndex".to_string(), "Fint"))
        }
        // The in-out length of a string result (MPI_Info_get_string's `buflen`,
        // MPI_Session_get_nth_pset's `pset_len`): C counts the NUL, Fortran does not.
        "int"
            if param.direction == "inout"
                && matches!(param.kind.as_str(), "INFO_VALUE_LENGTH" | "STRING_LENGTH") =>
        {
            Some(("crate::fortran::conv::StringLength".to_string(), "Fint"))
        }
        "int" => Some(("crate::fortran::conv::Int".to_string(), "Fint")),
        "MPI_Aint" | "MPI_Count" | "MPI_Offset" => Some((
            format!("crate::fortran::conv::Wide<crate::abi::{base}>"),
            "i64",
        )),
        handle if HANDLE_TYPES.contains(&handle) => Some((
            format!("crate::fortran::conv::Handle<crate::abi::{handle}>"),
            "Fint",
        )),
        _ => None,
    };
    // A per-process array: the data's length `*` with no earlier array to follow, in a
    // procedure on a communicator (every communicator here holds one process).
    let per_process = param.length == "*"
        && previous_len.is_none()
        && procedure
            .params
            .iter()
            .any(|p| p.kind == "COMMUNICATOR" && p.name == "comm")
        || param.length == "*" && previous_len.as_deref() == Some(PER_PROCESS);
    let len = || {
        if per_process {
            return PER_PROCESS.to_string();
        }
        let len = if param.length == "*" {
            previous_len.clone()
        } else if triplets {
            // The data writes the length as `['n', '3']`.
            param.length.split('\'').nth(1).map(str::to_string)
        } else {
            Some(param.length.clone())
        };
        match len {
            Some(len)
                if procedure
                    .params
                    .iter()
                    .any(|p| p.name == len && matches!(p.c_type.as_str(), "int" | "MPI_Count")) =>
            {
                len
            }
            _ => unsupported(procedure, param),
        }
    };
    if base == "MPI_Status" {
        return Reading::Status {
            len: array.then(len),
        };
    }
    if param.kind == "KEYVAL" && param.direction == "inout" && !array {
        unsupported(procedure, param);
    }
    match (scalar, array, pointers) {
        (Some((conv, fortran)), false, 0 | 1) => Reading::Scalar { conv, fortran },
        (Some((conv, fortran)), true, 0) => Reading::Array {
            conv,
            fortran,
            len: if triplets {
                format!("{}.saturating_mul(3)", len())
            } else {
                len()
            },
            per_process,
        },
        _ => unsupported(procedure, param),
    }
}

/// The Fortran routine of every function of `bindings/functions.txt` not marked
/// `fortran=hand` or `fortran=none`: `pmpi_x_` and `mpi_x_` (mpif.h, `use mpi`, and `use
/// mpi_f08` for routines without choice buffers) and, for a routine with choice buffers,
/// `pmpi_x_f08` and `mpi_x_f08` (the BIND(C) names of its `use mpi_f08` interface, which
/// passes C descriptors). Each converts its arguments (`crate::fortran::conv`), calls the C
/// body `super::<chapter>::<body>` inside the same panic boundary and error path as C, writes
/// the outputs back, and stores the code in IERROR. Included in `src/capi/mod.rs`.
pub fn fortran_entry_points(
    api: &BTreeMap<String, Procedure>,
    annotations: &[Annotation],
    sources: &BTreeMap<String, String>,
) -> String {
    let mut out = String::from(
        "// Generated by build.rs (bindings/generate_c.rs, `fortran_entry_points`): do not edit.\n",
    );
    for (annotation, procedure) in generated_fortran(api, annotations) {
        fortran_entry_point(&mut out, annotation, procedure, sources);
    }
    for (annotation, procedure) in large_fortran(api, annotations) {
        fortran_entry_point(&mut out, &annotation, &procedure, sources);
    }
    out
}

fn fortran_entry_point(
    out: &mut String,
    annotation: &Annotation,
    procedure: &Procedure,
    sources: &BTreeMap<String, String>,
) {
    let name = &annotation.name;
    let upper = name.to_uppercase();
    let lower = name.to_lowercase();
    let chapter = &annotation.chapter;
    let body = annotation.body();
    let source = sources.get(chapter).map(String::as_str).unwrap_or_default();
    if procedure.c_return == "double" {
        write!(
            out,
            r#"
/// `{upper}()`, for Fortran (mpif.h, `use mpi`, `use mpi_f08`): the C body's value.
#[no_mangle]
pub extern "C" fn p{lower}_() -> f64 {{
    crate::ffi::call_infallible(0.0, super::{chapter}::{body})
}}

/// `{upper}()`: forwards to `p{lower}_`, so a profiling library can interpose it.
#[no_mangle]
pub extern "C" fn {lower}_() -> f64 {{
    p{lower}_()
}}
"#
        )
        .unwrap();
        return;
    }
    if procedure.c_return == "MPI_Aint" {
        // MPI_AINT_ADD, MPI_AINT_DIFF: INTEGER(KIND=MPI_ADDRESS_KIND) functions of
        // INTEGER(KIND=MPI_ADDRESS_KIND) arguments, which no error reaches.
        let params: Vec<&Param> = procedure
            .params
            .iter()
            .filter(|p| fortran_param(p))
            .collect();
        assert!(
            params
                .iter()
                .all(|p| p.c_type == "MPI_Aint" && p.direction == "in"),
            "{name}: a generated address function takes addresses"
        );
        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        let typed: Vec<String> = names.iter().map(|n| format!("{n}: *const i64")).collect();
        let reads: Vec<String> = names
            .iter()
            .map(|n| format!("crate::fortran::conv::address_in({n})"))
            .collect();
        write!(
            out,
            r#"
/// `{upper}({args})`, for Fortran (mpif.h, `use mpi`, `use mpi_f08`): the C body's value.
///
/// # Safety
/// Fortran's convention: every argument is NULL or a valid reference.
#[no_mangle]
pub unsafe extern "C" fn p{lower}_({typed}) -> i64 {{
    // SAFETY: NULL or valid references (this function's contract).
    let ({names}) = unsafe {{ ({reads}) }};
    crate::ffi::call_infallible(0, || super::{chapter}::{body}({names}) as i64)
}}

/// `{upper}({args})`: forwards to `p{lower}_`, so a profiling library can interpose it.
///
/// # Safety
/// As for `p{lower}_`.
#[no_mangle]
pub unsafe extern "C" fn {lower}_({typed}) -> i64 {{
    // SAFETY: the same contract.
    unsafe {{ p{lower}_({names}) }}
}}
"#,
            args = names.join(", ").to_uppercase(),
            typed = typed.join(", "),
            names = names.join(", "),
            reads = reads.join(", "),
        )
        .unwrap();
        return;
    }
    assert!(
        procedure.c_return == "int",
        "{name}: a generated Fortran routine calls a body returning an error code"
    );
    // The Fortran parameters, in order; hidden string lengths last.
    let fortran_params: Vec<&Param> = procedure
        .params
        .iter()
        .filter(|p| fortran_param(p))
        .collect();
    for param in &fortran_params {
        assert!(
            param.c_type != "-",
            "{name}: `{}` exists in Fortran only; mark the function fortran=hand",
            param.name
        );
    }
    let mut previous_len: Option<String> = None;
    let readings: Vec<(&Param, Reading)> = fortran_params
        .iter()
        .map(|p| {
            let r = reading(procedure, p, &previous_len);
            if let Reading::Array { len, .. } = &r {
                previous_len = Some(len.split('.').next().unwrap_or(len).to_string());
            }
            (*p, r)
        })
        .collect();
    // Whether the `use mpi_f08` form has symbols of its own.
    let has_choice = readings
        .iter()
        .any(|(_, r)| matches!(r, Reading::Choice | Reading::BufferAddr));
    // The inner function's parameters (a choice as `Choice`), and the symbols'.
    let mut inner_params = Vec::new();
    let mut address_params = Vec::new();
    let mut descriptor_params = Vec::new();
    let mut forward_address = Vec::new();
    let mut forward_descriptor = Vec::new();
    let mut forward = Vec::new();
    // The names as the `use mpi_f08` symbol forwards them (no hidden string lengths there).
    let mut forward_f08 = Vec::new();
    for (param, reading) in &readings {
        let n = &param.name;
        let ty = match reading {
            Reading::Scalar { fortran, .. } | Reading::Array { fortran, .. } => {
                if *fortran == "i64" {
                    "*mut i64".to_string()
                } else {
                    format!("*mut crate::engine::{fortran}")
                }
            }
            Reading::Status { .. } => "*mut crate::engine::Fint".to_string(),
            Reading::Text => "*mut u8".to_string(),
            Reading::BufferAddr => {
                inner_params.push(format!("{n}: crate::fortran::conv::BufferAddr"));
                address_params.push(format!("{n}: *mut std::ffi::c_void"));
                descriptor_params.push(format!("{n}: *mut std::ffi::c_void"));
                forward_address.push(format!("crate::fortran::conv::BufferAddr::unused({n})"));
                forward_descriptor.push(format!("crate::fortran::conv::BufferAddr::CPtr({n})"));
                forward.push(n.clone());
                forward_f08.push(n.clone());
                continue;
            }
            Reading::Choice => {
                inner_params.push(format!("{n}: crate::fortran::conv::Choice"));
                address_params.push(format!("{n}: *mut std::ffi::c_void"));
                descriptor_params.push(format!("{n}: *const crate::fortran::conv::CfiDesc"));
                forward_address.push(format!("crate::fortran::conv::Choice::Address({n})"));
                forward_descriptor.push(format!("crate::fortran::conv::Choice::Descriptor({n})"));
                forward.push(n.clone());
                forward_f08.push(n.clone());
                continue;
            }
        };
        inner_params.push(format!("{n}: {ty}"));
        address_params.push(format!("{n}: {ty}"));
        forward_address.push(n.clone());
        forward.push(n.clone());
        forward_f08.push(n.clone());
        if matches!(reading, Reading::Text) {
            // A BIND(C) interface passes CHARACTER(LEN=*) as a C descriptor, with no hidden
            // length: its address and element length are the string.
            descriptor_params.push(format!("{n}: *const crate::fortran::conv::CfiDesc"));
            forward_descriptor.push(format!("crate::fortran::conv::text_address({n})"));
        } else {
            descriptor_params.push(format!("{n}: {ty}"));
            forward_descriptor.push(n.clone());
        }
    }
    // MPI_PCONTROL(LEVEL) has no IERROR: the inner function gets none (NULL).
    let has_ierror = has_ierror(procedure);
    assert!(
        has_ierror || !has_choice,
        "{name}: no IERROR, and choice buffers"
    );
    inner_params.push("ierror: *mut crate::engine::Fint".to_string());
    if has_ierror {
        for list in [&mut address_params, &mut descriptor_params] {
            list.push("ierror: *mut crate::engine::Fint".to_string());
        }
        for list in [
            &mut forward_address,
            &mut forward_descriptor,
            &mut forward,
            &mut forward_f08,
        ] {
            list.push("ierror".to_string());
        }
    } else {
        forward_address.push("std::ptr::null_mut()".to_string());
    }
    for (param, reading) in &readings {
        if matches!(reading, Reading::Text) {
            let len = format!("{}_len", param.name);
            for list in [&mut inner_params, &mut address_params] {
                list.push(format!("{len}: usize"));
            }
            for list in [&mut forward_address, &mut forward] {
                list.push(len.clone());
            }
            forward_descriptor.push(format!("crate::fortran::conv::text_length({})", param.name));
        }
    }
    // Which error handler.
    let target = match &annotation.on {
        None => "crate::ffi::Target::SelfComm".to_string(),
        Some(world) if world == "world" => {
            "crate::ffi::Target::Comm(crate::abi::MPIATTR_HANDLE_MPI_COMM_WORLD as usize as crate::abi::MPI_Comm)".to_string()
        }
        Some(arg) => {
            let param = fortran_params
                .iter()
                .find(|p| &p.name == arg)
                .unwrap_or_else(|| panic!("functions.txt: {name} has no argument {arg}"));
            match param.kind.as_str() {
                "COMMUNICATOR" => format!("crate::fortran::comm_target({arg})"),
                "WINDOW" => format!("crate::fortran::win_target({arg})"),
                "SESSION" => format!("crate::fortran::session_target({arg})"),
                other => panic!("functions.txt: {name}: no error handler on a {other}"),
            }
        }
    };
    // How each input appears in a fatal error's message.
    let described: Vec<String> = readings
        .iter()
        .filter(|(p, _)| p.direction != "out")
        .map(|(p, r)| {
            let n = &p.name;
            let shown = match r {
                Reading::Scalar { conv, .. } if conv.contains("Handle<") => {
                    format!("&crate::fortran::HandleArg({n})")
                }
                Reading::Scalar { .. } => format!("&crate::fortran::Value({n})"),
                Reading::Text => format!("&crate::fortran::Text({n}, {n}_len)"),
                Reading::Choice => format!("&{n}"),
                Reading::Array { .. } | Reading::Status { .. } | Reading::BufferAddr => {
                    format!("&crate::fortran::Address({n} as usize)")
                }
            };
            format!("(\"{n}\", {shown})")
        })
        .collect();
    // Decoding: scalar inputs first (array lengths among them), then the outputs.
    let mut decode = String::new();
    let mut stores = String::new();
    let mut checked: Vec<String> = Vec::new();
    let mut call_args = Vec::new();
    let raw = &annotation.raw;
    for (param, reading) in &readings {
        let n = &param.name;
        if let Reading::Scalar { conv, .. } = reading {
            if !param.c_type.ends_with('*') {
                writeln!(
                    decode,
                    "                let {n} = crate::fortran::conv::input::<{conv}>({n}, \"{n}\")?;"
                )
                .unwrap();
            }
        }
    }
    for (param, reading) in &readings {
        let n = &param.name;
        let written = param.direction != "in";
        // `int[][3]` reaches the body as a pointer to triplets.
        let cast = match (
            param.c_type.starts_with("const "),
            param.c_type.ends_with("[][3]"),
        ) {
            (true, true) => ".cast::<[std::ffi::c_int; 3]>().cast_const()",
            (true, false) => ".cast_const()",
            (false, true) => ".cast::<[std::ffi::c_int; 3]>()",
            (false, false) => "",
        };
        match reading {
            Reading::Scalar { .. } if !param.c_type.ends_with('*') => call_args.push(n.clone()),
            Reading::Scalar { conv, .. } => {
                let strict = param.direction != "out";
                let decoded = matches!(decoding(param, raw), Decoded::Out(_));
                if decoded {
                    writeln!(
                        decode,
                        "                crate::fortran::conv::nonnull({n}, \"{n}\")?;"
                    )
                    .unwrap();
                }
                writeln!(
                    decode,
                    "                let mut {n}_slot = crate::fortran::conv::Slot::<{conv}>::new({n}, {strict})?;"
                )
                .unwrap();
                if decoded {
                    writeln!(
                        decode,
                        "                let mut {n}_out = crate::ffi::Out::new(&mut {n}_slot.value, \"{n}\")?;"
                    )
                    .unwrap();
                    call_args.push(format!("&mut {n}_out"));
                } else {
                    call_args.push(format!("{n}_slot.pointer(){cast}"));
                }
                if written {
                    writeln!(stores, "                let {n}_stored = {n}_slot.store();").unwrap();
                    checked.push(format!("{n}_stored"));
                }
            }
            Reading::Array {
                conv,
                len,
                per_process,
                ..
            } => {
                let reading = match (param.direction.as_str(), per_process) {
                    ("out", _) => "Output",
                    (_, true) => "Lenient",
                    _ => "Strict",
                };
                writeln!(
                    decode,
                    "                let mut {n}_slot = crate::fortran::conv::ArraySlot::<{conv}>::new({n}, {len}, crate::fortran::conv::Reading::{reading})?;"
                )
                .unwrap();
                call_args.push(format!("{n}_slot.pointer(){cast}"));
                if written {
                    writeln!(stores, "                let {n}_stored = {n}_slot.store();").unwrap();
                    checked.push(format!("{n}_stored"));
                }
            }
            Reading::Status { len } => {
                let count = len.clone().unwrap_or_else(|| "1".to_string());
                let read = param.direction != "out";
                writeln!(
                    decode,
                    "                let mut {n}_slot = crate::fortran::conv::StatusSlot::new({n}, {count}, {read});"
                )
                .unwrap();
                call_args.push(format!("{n}_slot.pointer(){cast}"));
                if written {
                    writeln!(stores, "                {n}_slot.store();").unwrap();
                }
            }
            Reading::Choice => {
                let later = param.asynchronous;
                writeln!(
                    decode,
                    "                let {n}_staged = crate::fortran::conv::Staged::new({n}, {written}, {later})?;"
                )
                .unwrap();
                call_args.push(format!("{n}_staged.address(){cast}"));
                if written {
                    writeln!(stores, "                {n}_staged.store();").unwrap();
                }
            }
            Reading::BufferAddr => {
                writeln!(
                    decode,
                    "                let mut {n}_slot = crate::fortran::conv::BufferAddrSlot::new({n});"
                )
                .unwrap();
                call_args.push(format!("{n}_slot.pointer()"));
                writeln!(stores, "                {n}_slot.store(result.is_ok());").unwrap();
            }
            Reading::Text if written => {
                writeln!(
                    decode,
                    "                let mut {n}_slot = crate::fortran::conv::StringSlot::new({n}, {n}_len);"
                )
                .unwrap();
                call_args.push(format!("{n}_slot.pointer()"));
                writeln!(stores, "                {n}_slot.store(result.is_ok());").unwrap();
            }
            Reading::Text => {
                writeln!(
                    decode,
                    "                let {n}_text = crate::fortran::conv::string_in({n}, {n}_len, \"{n}\")?;"
                )
                .unwrap();
                call_args.push(format!("{n}_text.as_ptr().cast()"));
            }
        }
    }
    // C parameters Fortran does not have.
    let mut all_args = Vec::new();
    let mut fortran_args = call_args.into_iter();
    for param in procedure.c_params().filter(|p| p.kind != "VARARGS") {
        if param.fortran_suppressed {
            // MPI_Init's `argc`/`argv` pointers, MPI_Info_create_env's `argc`/`argv`.
            let none = match param.c_type.as_str() {
                "int" => "0",
                c if c.ends_with('*') || c.ends_with("[]") => "std::ptr::null_mut()",
                _ => panic!(
                    "{name}: the C-only `{}` is neither int nor pointer",
                    param.name
                ),
            };
            all_args.push(none.to_string());
        } else {
            all_args.push(fortran_args.next().expect("a Fortran argument"));
        }
    }
    // (An `unsafe fn` body is called within the inner function's `unsafe` block.)
    let _ = is_unsafe(source, &body);
    let call = format!("super::{chapter}::{body}({})", all_args.join(", "));
    let signature = format!(
        "{upper}({})",
        fortran_params
            .iter()
            .map(|p| p.name.as_str())
            .chain(has_ierror.then_some("ierror"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let inner = format!("{lower}_whole");
    write!(
        out,
        r#"
/// The routine `{signature}` whole: argument conversion, the C body, the error handler,
/// the outputs written back, IERROR.
///
/// # Safety
/// Fortran's convention: every argument is a reference valid for the accesses the routine
/// makes (strings for their hidden lengths); `ierror` may be NULL (an absent OPTIONAL).
#[inline(never)]
#[allow(clippy::too_many_arguments, unused_mut)]
unsafe fn {inner}({inner_params}) {{
    // SAFETY: each conversion needs what this function's contract guarantees.
    unsafe {{
        crate::fortran::finish(
            ierror,
            crate::ffi::call(
                "{upper}",
                move || {target},
                move |line: &mut String| {{
                    let args: &[(&str, &dyn crate::ffi::Arg)] = &[{described}];
                    crate::ffi::args::describe_all(line, args);
                }},
                move || -> crate::engine::Result<()> {{
{decode}                let result = {call};
                // The outputs go back whether the body succeeded or not (each only if the
                // body wrote it); the body's error comes first.
{stores}                result{checked}
            }},
            ),
        )
    }}
}}

/// `{signature}`, for Fortran (mpif.h, `use mpi`{f08_note}).
///
/// # Safety
/// As for the routine's inner function.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn p{lower}_({address_params}) {{
    // SAFETY: the same contract.
    unsafe {{ {inner}({forward_address}) }}
}}

/// `{signature}`: forwards to `p{lower}_`, so a profiling library can interpose it.
///
/// # Safety
/// As for `p{lower}_`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn {lower}_({address_params}) {{
    // SAFETY: the same contract.
    unsafe {{ p{lower}_({forward}) }}
}}
"#,
        inner_params = inner_params.join(", "),
        described = described.join(", "),
        checked = checked
            .iter()
            .map(|c| format!(".and({c})"))
            .collect::<String>(),
        address_params = address_params.join(", "),
        forward_address = forward_address.join(", "),
        forward = forward.join(", "),
        f08_note = if has_choice { "" } else { ", `use mpi_f08`" },
    )
    .unwrap();
    if has_choice {
        write!(
            out,
            r#"
/// `{signature}` for `use mpi_f08` (its BIND(C) name): choice buffers come as C descriptors.
///
/// # Safety
/// As for `p{lower}_`; each descriptor is valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn p{lower}_f08({descriptor_params}) {{
    // SAFETY: the same contract.
    unsafe {{ {inner}({forward_descriptor}) }}
}}

/// `{signature}` for `use mpi_f08`: forwards to `p{lower}_f08`, so a profiling library can
/// interpose it.
///
/// # Safety
/// As for `p{lower}_f08`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn {lower}_f08({descriptor_params}) {{
    // SAFETY: the same contract.
    unsafe {{ p{lower}_f08({forward_f08}) }}
}}
"#,
            descriptor_params = descriptor_params.join(", "),
            forward_descriptor = forward_descriptor.join(", "),
            forward_f08 = forward_f08.join(", "),
        )
        .unwrap();
    }
}
