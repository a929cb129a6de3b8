//! docs/api.md against the sources it documents: every C function of `include/mpi.h` has its
//! section with its prototype exactly as declared, and every Fortran routine of
//! `fortran/routines.txt` (expanded from the standard's data) has its `use mpi` and `use mpi_f08` interfaces exactly as the build
//! script generated them (`OUT_DIR/fortran/mpi.f90`, `mpi_f08.f90`). A function added,
//! removed or changed without docs/api.md following fails here. The man pages `ci/install`
//! makes from docs/api.md (`ci/manpages.rs`) must have one page for every section, each with
//! every part.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

/// The man page generator `ci/install` compiles and runs, compiled here too so that clippy,
/// rustfmt and the test below see it.
#[path = "../ci/manpages.rs"]
mod manpages;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// `(name, prototype)` of every `MPIATTR_DECLARE(ret, name, (args))` of mpi.h, whitespace
/// normalized: `int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);`.
fn c_prototypes(header: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = header;
    while let Some(start) = rest.find("\nMPIATTR_DECLARE(") {
        let text = &rest[start + "\nMPIATTR_DECLARE(".len()..];
        let end = text.find("))\n").expect("a declaration ends with `))`");
        let declaration = text[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let (ret, tail) = declaration.split_once(", ").unwrap();
        let (name, args) = tail.split_once(", (").unwrap();
        found.push((format!("MPI_{name}"), format!("{ret} MPI_{name}({args});")));
        rest = &text[end..];
    }
    found
}

/// The interface block of `name` in a generated module, as docs/api.md shows it: the
/// header line, then each declaration indented by four spaces.
fn fortran_block(module: &str, name: &str) -> Option<String> {
    // Continuation lines (`&` at the end) joined to the line they continue.
    let mut joined: Vec<String> = Vec::new();
    let mut open = false;
    for line in module.lines().map(str::trim) {
        if open {
            let last = joined.last_mut().expect("a continued line");
            last.push(' ');
            last.push_str(line);
        } else {
            joined.push(line.to_string());
        }
        open = joined.last().is_some_and(|l| l.ends_with('&'));
        if open {
            let last = joined.last_mut().expect("a line");
            last.truncate(last.len() - 1);
            let kept = last.trim_end().len();
            last.truncate(kept);
        }
    }
    let lines: Vec<&str> = joined.iter().map(String::as_str).collect();
    let start = lines.iter().position(|l| {
        let lower = l.to_lowercase();
        let wanted = name.to_lowercase();
        lower.starts_with(&format!("subroutine {wanted}("))
            || lower.starts_with(&format!("double precision function {wanted}("))
            || lower.starts_with(&format!(
                "integer(kind=mpi_address_kind) function {wanted}("
            ))
    })?;
    let head = lines[start];
    let head = match head.strip_prefix("subroutine ") {
        Some(rest) => format!("SUBROUTINE {rest}"),
        None => {
            // `double precision function name(...)`: the result type and FUNCTION upper case.
            let (result, rest) = head.split_once(" function ").expect("a function");
            format!("{} FUNCTION {rest}", result.to_uppercase())
        }
    };
    let mut block = vec![head];
    for line in &lines[start + 1..] {
        if line.starts_with("end ") {
            break;
        }
        if *line == "import" || line.starts_with("!GCC$") || line.is_empty() {
            continue;
        }
        block.push(format!("    {line}"));
    }
    Some(block.join("\n"))
}

#[test]
fn api_reference_covers_every_c_function() {
    let api = read(&repo().join("docs/api.md"));
    let header = read(&repo().join("include/mpi.h"));
    let prototypes = c_prototypes(&header);
    assert!(
        prototypes.len() > 60,
        "only {} functions in mpi.h",
        prototypes.len()
    );
    let mut problems = Vec::new();
    for (name, prototype) in &prototypes {
        if !api.contains(&format!("\n### {name}\n")) {
            problems.push(format!("{name}: no section"));
        }
        if !api.lines().any(|l| l == prototype) {
            problems.push(format!("{name}: prototype `{prototype}` missing"));
        }
    }
    // Every section is a function of mpi.h.
    for line in api.lines() {
        if let Some(name) = line.strip_prefix("### ") {
            if !prototypes.iter().any(|(n, _)| n == name) {
                problems.push(format!("section {name} documents no function of mpi.h"));
            }
        }
    }
    assert!(problems.is_empty(), "docs/api.md:\n{}", problems.join("\n"));
}

/// The generated `mpi` and `mpi_f08` modules' sources, and the names of every Fortran
/// routine: those of `fortran/routines.txt` and those generated from
/// `bindings/functions.txt` (build.rs expands both into `OUT_DIR/routines.txt`).
fn fortran_modules_and_routines() -> (String, String, Vec<String>) {
    let dir = Path::new(env!("OUT_DIR")).join("fortran");
    let routines = routine_lines()
        .iter()
        .filter(|l| !is_large(l))
        .filter_map(|l| l.split('(').next().map(str::to_owned))
        .collect();
    (
        read(&dir.join("mpi.f90")),
        read(&dir.join("mpi_f08.f90")),
        routines,
    )
}

/// The lines of `OUT_DIR/routines.txt`, one per Fortran routine (build.rs expands them).
fn routine_lines() -> Vec<String> {
    read(&Path::new(env!("OUT_DIR")).join("routines.txt"))
        .lines()
        .filter(|l| l.starts_with("MPI_"))
        .map(str::to_owned)
        .collect()
}

/// Whether a line of `OUT_DIR/routines.txt` is a large-count routine `MPI_X_C` (option
/// `large`: `use mpi_f08` only, a specific of the generic name MPI_X).
fn is_large(line: &str) -> bool {
    line.rsplit_once(')')
        .is_some_and(|(_, options)| options.split_whitespace().any(|w| w == "large"))
}

/// The names mpi.h defines: `#define MPI_X ...` and enumerators `MPI_X = ...`.
fn c_constant_names(header: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in header.lines().map(str::trim) {
        let name = match line.strip_prefix("#define ") {
            Some(rest) => rest.split(|c: char| c.is_whitespace() || c == '(').next(),
            None => line
                .split_once('=')
                .map(|(name, _)| name.trim())
                .filter(|name| !name.contains(char::is_whitespace)),
        };
        if let Some(name) = name.filter(|n| n.starts_with("MPI_")) {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// Every constant of mpi.h exists in mpif.h, `use mpi` and `use mpi_f08` (as a parameter, a
/// special variable such as MPI_BOTTOM or MPI_BUFFER_AUTOMATIC, or a predefined callback),
/// but the C view of a Fortran status (MPI_F_STATUS_SIZE, MPI_F_SOURCE ...), which Fortran
/// does not have.
#[test]
fn every_c_constant_is_in_fortran() {
    let header = read(&repo().join("include/mpi.h"));
    let names = c_constant_names(&header);
    assert!(names.len() > 200, "only {} constants in mpi.h", names.len());
    for expected in [
        "MPI_BUFFER_AUTOMATIC",
        "MPI_BSEND_OVERHEAD",
        "MPI_BOTTOM",
        "MPI_ANY_SOURCE",
    ] {
        assert!(names.iter().any(|n| n == expected), "mpi.h: no {expected}");
    }
    let c_only = [
        "MPI_F_STATUS_SIZE",
        "MPI_F_SOURCE",
        "MPI_F_TAG",
        "MPI_F_ERROR",
    ];
    let dir = Path::new(env!("OUT_DIR")).join("fortran");
    let words = |text: &str| -> std::collections::HashSet<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_uppercase)
            .collect()
    };
    let mut problems = Vec::new();
    for file in ["mpif.h", "mpi.f90", "mpi_f08.f90"] {
        let declared = words(&read(&dir.join(file)));
        for name in names.iter().filter(|n| !c_only.contains(&n.as_str())) {
            if !declared.contains(name) {
                problems.push(format!("{file}: no {name}"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "constants missing in Fortran:\n{}",
        problems.join("\n")
    );
}

#[test]
fn api_reference_covers_every_fortran_routine() {
    let api = read(&repo().join("docs/api.md"));
    let (mpi, mpi_f08, routines) = fortran_modules_and_routines();
    assert!(routines.len() > 60, "only {} routines", routines.len());
    let mut problems = Vec::new();
    for routine in &routines {
        for (module, text) in [("mpi", &mpi), ("mpi_f08", &mpi_f08)] {
            match fortran_block(text, routine) {
                Some(block) if api.contains(&format!("```fortran\n{block}\n```")) => {}
                Some(block) => problems.push(format!("{routine}: the {module} interface\n{block}")),
                None => problems.push(format!("{routine}: not in module {module}")),
            }
        }
    }
    // The large-count routines: in `use mpi_f08` (unless 8-byte INTEGERs leave them out),
    // documented in MPI_X's section.
    let mut large = 0;
    for line in routine_lines().iter().filter(|l| is_large(l)) {
        let routine = line.split('(').next().unwrap_or_default();
        if let Some(block) = fortran_block(&mpi_f08, routine) {
            large += 1;
            if !api.contains(&format!("```fortran\n{block}\n```")) {
                problems.push(format!("{routine}: the mpi_f08 interface\n{block}"));
            }
        }
        if fortran_block(&mpi, routine).is_some() {
            problems.push(format!("{routine}: a large-count routine in module mpi"));
        }
    }
    assert!(
        large > 60 || cfg!(feature = "fortran-integer-8") && large == 0,
        "{large} large-count routines in mpi_f08"
    );
    assert!(
        problems.is_empty(),
        "docs/api.md lacks or differs from:\n{}",
        problems.join("\n")
    );
}

#[test]
fn man_pages_cover_every_section() {
    let api = read(&repo().join("docs/api.md"));
    let attributes = read(&repo().join("docs/attributes.md"));
    let pages = manpages::pages(&api, &attributes, "0.0.0")
        .unwrap_or_else(|e| panic!("ci/manpages.rs cannot make the man pages: {e}"));
    let sections: Vec<&str> = api.lines().filter_map(|l| l.strip_prefix("### ")).collect();
    let names: Vec<&str> = pages.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, sections, "one page for every section of docs/api.md");
    let header = read(&repo().join("include/mpi.h"));
    let mut problems = Vec::new();
    for (name, prototype) in c_prototypes(&header) {
        let Some(page) = pages.iter().find(|p| p.name == name) else {
            continue;
        };
        let parts = [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH ERRORS",
            ".SH \"SEE ALSO\"",
        ];
        for part in parts {
            if !page.text.contains(&format!("\n{part}\n")) {
                problems.push(format!("{name}: no `{part}`"));
            }
        }
        // Every argument of the prototype is described.
        let (_, list) = prototype.trim_end_matches(");").split_once('(').unwrap();
        for argument in list.split(", ").filter(|a| *a != "void") {
            let argument = argument.rsplit([' ', '*']).next().unwrap();
            let argument = argument.split('[').next().unwrap_or(argument);
            if !page.text.contains(&format!("\n.TP\n.I {argument}\n")) {
                problems.push(format!("{name}: argument {argument} not under ARGUMENTS"));
            }
        }
    }
    assert!(problems.is_empty(), "man pages:\n{}", problems.join("\n"));
}

#[test]
fn mpi_h_agrees_with_the_standard() {
    let standard = common::standard();
    assert!(
        standard.c.len() > 1000,
        "only {} C bindings read",
        standard.c.len()
    );
    let header = read(&repo().join("include/mpi.h"));
    let mut problems = Vec::new();
    for (name, prototype) in c_prototypes(&header) {
        match standard.c.get(&name) {
            None => problems.push(format!("{name}: not a function of MPI-5.0")),
            Some(theirs) => {
                let (ours, theirs) = (
                    common::normalize_prototype(&prototype),
                    common::normalize_prototype(theirs),
                );
                if ours != theirs {
                    problems.push(format!("{name}:\n  mpi.h:    {ours}\n  standard: {theirs}"));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "mpi.h and MPI-5.0 differ:\n{}",
        problems.join("\n")
    );
}

/// The argument names of a binding's first line, upper-case: `MPI_X(A, B, IERROR)`.
fn argument_names(first_line: &str) -> Vec<String> {
    let inside = first_line
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map_or("", |(args, _)| args);
    inside
        .split(',')
        .map(|a| a.trim().to_uppercase())
        .filter(|a| !a.is_empty())
        .collect()
}

#[test]
fn fortran_modules_agree_with_the_standard() {
    let standard = common::standard();
    let (mpi, mpi_f08, routines) = fortran_modules_and_routines();
    let mut problems = Vec::new();
    for routine in &routines {
        for (module, text, bindings) in [
            ("mpi", &mpi, &standard.f90),
            ("mpi_f08", &mpi_f08, &standard.f08),
        ] {
            let Some(theirs) = bindings.get(&routine.to_uppercase()) else {
                // MPI-4.1 leaves the MPI-1 attribute routines out of mpi_f08 (an extension
                // here: docs/semantics.md, "Fortran").
                if module != "mpi_f08" {
                    problems.push(format!("{routine}: no {module} binding in MPI-5.0"));
                }
                continue;
            };
            let Some(block) = fortran_block(text, routine) else {
                problems.push(format!("{routine}: not in module {module}"));
                continue;
            };
            let first = block.lines().next().unwrap_or("");
            let theirs_first = theirs
                .iter()
                .find(|l| l.contains('('))
                .map_or("", String::as_str);
            let (ours, standard) = (argument_names(first), argument_names(theirs_first));
            if ours != standard {
                problems.push(format!(
                    "{routine} ({module}): arguments {ours:?}, the standard's {standard:?}"
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the Fortran modules and MPI-5.0 differ:\n{}",
        problems.join("\n")
    );
}

/// A procedure of `include/mpi-api.txt`: its C return type, flags, and each parameter's
/// `(name, kind, direction, C type, large-count C type, flags, F08 type)`.
struct ApiProcedure {
    c_return: String,
    flags: Vec<String>,
    params: Vec<[String; 7]>,
}

fn api_procedures() -> std::collections::BTreeMap<String, ApiProcedure> {
    let mut procedures = std::collections::BTreeMap::new();
    let mut current: Option<(String, ApiProcedure)> = None;
    for line in read(&repo().join("include/mpi-api.txt")).lines() {
        if let Some(rest) = line.strip_prefix("proc ") {
            let fields: Vec<&str> = rest.split('\t').collect();
            assert_eq!(fields.len(), 3, "mpi-api.txt: {line:?}");
            if let Some((name, done)) = current.take() {
                procedures.insert(name, done);
            }
            let procedure = ApiProcedure {
                c_return: fields[1].to_string(),
                flags: fields[2].split(' ').map(str::to_string).collect(),
                params: Vec::new(),
            };
            current = Some((fields[0].to_string(), procedure));
        } else if let Some(rest) = line.strip_prefix("arg ") {
            let fields: Vec<&str> = rest.split('\t').collect();
            assert_eq!(fields.len(), 9, "mpi-api.txt: {line:?}");
            let param = [0, 1, 2, 3, 4, 8, 7].map(|i| fields[i].to_string());
            current
                .as_mut()
                .expect("an arg after a proc")
                .1
                .params
                .push(param);
        }
    }
    procedures.extend(current);
    procedures
}

/// The C prototype the data gives, written as mpi.h writes one: `int MPI_X(const int a[])`.
fn api_prototype(name: &str, procedure: &ApiProcedure, large: bool) -> String {
    let args: Vec<String> = procedure
        .params
        .iter()
        // The `_c` form's parameters are those with a large-count type (it may have more).
        .filter(|p| p[if large { 4 } else { 3 }] != "-")
        .map(|p| {
            let ty = if large { &p[4] } else { &p[3] };
            if let Some((base, row)) = ty.split_once("[][") {
                return format!("{base} {}[][{row}", p[0]);
            }
            match ty.strip_suffix("[]") {
                Some(base) => format!("{base} {}[]", p[0]),
                None => format!("{ty} {}", p[0]),
            }
        })
        .collect();
    let args = if args.is_empty() {
        "void".to_string()
    } else {
        args.join(", ")
    };
    format!("{} {name}({args});", procedure.c_return)
}

/// The functions of `bindings/functions.txt`, with whether their `_c` form is implemented.
fn annotated_functions() -> Vec<(String, bool)> {
    read(&repo().join("bindings/functions.txt"))
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default())
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next()?.to_string();
            Some((name, words.any(|w| w == "large")))
        })
        .collect()
}

#[test]
fn implemented_c_functions_agree_with_the_data() {
    let api = api_procedures();
    assert!(
        api.len() > 500,
        "only {} procedures in mpi-api.txt",
        api.len()
    );
    let header = read(&repo().join("include/mpi.h"));
    let declared: std::collections::BTreeMap<String, String> =
        c_prototypes(&header).into_iter().collect();
    let generated = read(&Path::new(env!("OUT_DIR")).join("capi_functions.rs"));
    let annotated = annotated_functions();
    assert!(annotated.len() > 40, "only {} annotated", annotated.len());
    let mut problems = Vec::new();
    for (name, large) in &annotated {
        let Some(procedure) = api.get(name) else {
            problems.push(format!("{name}: not in include/mpi-api.txt"));
            continue;
        };
        let forms = if *large {
            vec![false, true]
        } else {
            vec![false]
        };
        for large in forms {
            let name = if large {
                format!("{name}_c")
            } else {
                name.clone()
            };
            let theirs = common::normalize_prototype(&api_prototype(&name, procedure, large));
            match declared.get(&name) {
                None => problems.push(format!("{name}: not declared in mpi.h")),
                Some(ours) if common::normalize_prototype(ours) != theirs => {
                    problems.push(format!("{name}:\n  mpi.h: {ours}\n  data:  {theirs}"))
                }
                Some(_) => {}
            }
            for symbol in [name.clone(), format!("P{name}")] {
                if !generated.contains(&format!(" extern \"C\" fn {symbol}(")) {
                    problems.push(format!("{symbol}: not generated"));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "bindings/functions.txt, mpi.h and mpi-api.txt differ:\n{}",
        problems.join("\n")
    );
}

/// The `use mpi_f08` type of a routine type of `fortran/generate.rs`, as the data writes it.
fn f08_type(ours: &str) -> &'static str {
    let first = ours.split_whitespace().next().unwrap_or_default();
    match first.strip_suffix("[]").unwrap_or(first) {
        "int" => "INTEGER",
        "aint" => "INTEGER(KIND=MPI_ADDRESS_KIND)",
        "logical" => "LOGICAL",
        "comm" => "TYPE(MPI_Comm)",
        "datatype" => "TYPE(MPI_Datatype)",
        "win" => "TYPE(MPI_Win)",
        "request" => "TYPE(MPI_Request)",
        "info" => "TYPE(MPI_Info)",
        "errhandler" => "TYPE(MPI_Errhandler)",
        "op" => "TYPE(MPI_Op)",
        "group" => "TYPE(MPI_Group)",
        "session" => "TYPE(MPI_Session)",
        "message" => "TYPE(MPI_Message)",
        "file" => "TYPE(MPI_File)",
        "offset" => "INTEGER(KIND=MPI_OFFSET_KIND)",
        "count" => "INTEGER(KIND=MPI_COUNT_KIND)",
        "string" => "CHARACTER",
        "status" => "TYPE(MPI_Status)",
        "choice" => "TYPE(*), DIMENSION(..)",
        "baseptr" | "bufaddr" => "TYPE(C_PTR)",
        "copy_fn" | "delete_fn" | "user_fn" | "errhandler_fn" | "grequest_fn" => "PROCEDURE",
        _ => "?",
    }
}

#[test]
fn fortran_routines_agree_with_the_data() {
    let api = api_procedures();
    // The signatures build.rs expanded from fortran/routines.txt and the data, which
    // fortran/generate.rs read.
    let text = read(&Path::new(env!("OUT_DIR")).join("routines.txt"));
    let mut problems = Vec::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| l.starts_with("MPI_")) {
        let (head, rest) = line.split_once('(').unwrap();
        let args = rest.rsplit_once(')').map_or("", |(args, _)| args);
        // MPI_X_C (option `large`) is the large-count form of MPI_X.
        let large = is_large(line);
        let wanted = if large {
            head.strip_suffix("_C").unwrap_or(head)
        } else {
            head
        };
        let Some((name, procedure)) = api.iter().find(|(name, p)| {
            name.eq_ignore_ascii_case(wanted) && !p.flags.contains(&"no-f90".into())
        }) else {
            problems.push(format!("{head}: no Fortran procedure in mpi-api.txt"));
            continue;
        };
        checked += 1;
        let ours: Vec<(String, bool, &str)> = args
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| {
                let (arg, ty) = a.split_once(':').unwrap();
                let ty = ty.trim();
                let written = ty.starts_with("out ") || ty.starts_with("inout ");
                let base = ty.trim_start_matches("inout ").trim_start_matches("out ");
                (arg.trim().to_lowercase(), written, f08_type(base))
            })
            .collect();
        let base = |c: &str| {
            c.trim_start_matches("const ")
                .trim_end_matches("[]")
                .trim_end_matches('*')
                .trim()
                .to_string()
        };
        let theirs: Vec<(String, bool, &str)> = procedure
            .params
            .iter()
            // Not IERROR, not C-only arguments (MPI_Pcontrol's `...`); in the ordinary form
            // not those of the large-count form only (MPI_Type_get_envelope's
            // `num_large_counts`), in the large-count form only those it has.
            .filter(|p| p[0] != "ierror" && !p[5].split(' ').any(|f| f == "no-f90"))
            .filter(|p| p[1] != "VARARGS")
            .filter(|p| {
                if large {
                    p[4] != "-"
                } else {
                    !(p[3] == "-" && p[4] != "-")
                }
            })
            .map(|p| {
                // The large-count form's integers that C makes MPI_Count are
                // INTEGER(KIND=MPI_COUNT_KIND) in `use mpi_f08` too.
                let widened = large && base(&p[4]) == "MPI_Count" && base(&p[3]) != "MPI_Count";
                let f08 = if widened {
                    "INTEGER(KIND=MPI_COUNT_KIND)"
                } else {
                    p[6].as_str()
                };
                (p[0].to_lowercase(), p[2] != "in", f08)
            })
            .collect();
        if ours != theirs {
            problems.push(format!(
                "{name}: routines.txt {ours:?}\n  mpi-api.txt {theirs:?}"
            ));
        }
    }
    assert!(checked > 60, "only {checked} routines checked");
    assert!(
        problems.is_empty(),
        "the expanded Fortran routines and mpi-api.txt differ (name, written, F08 type):\n{}",
        problems.join("\n")
    );
}
