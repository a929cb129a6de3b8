//! The man pages of mpiattr: one `MPI_X.3` for every function of `docs/api.md`.
//!
//! ```text
//! manpages DOCS_DIR OUT_DIR VERSION
//! ```
//!
//! reads `DOCS_DIR/api.md` and `DOCS_DIR/attributes.md` and writes `OUT_DIR/MPI_X.3` (roff for
//! man(7)) for every `### MPI_X` section of api.md. A page holds:
//!
//! - NAME: the function and the first sentence of its description;
//! - SYNOPSIS: the section's C prototype and Fortran interfaces (`mpif.h` and `use mpi`,
//!   `use mpi_f08`), long lines broken at argument boundaries, and the section's notes on them;
//! - DESCRIPTION: the section's description;
//! - ARGUMENTS: every argument with its direction and its C and Fortran types, read off the
//!   prototype and the interfaces: the direction is the Fortran `intent` (none: input);
//! - ERRORS: the section's errors, then those api.md's conventions give every function;
//! - on the attribute pages (`*_set_attr`, `*_get_attr`, `*_delete_attr`, `MPI_Attr_*`) the
//!   values across languages (attributes.md §3, with the interoperability table); on the
//!   keyval creation pages the predefined callbacks, on `MPI_Error_class` and
//!   `MPI_Error_string` the error classes (both from api.md);
//! - NOTES: api.md's other conventions;
//! - SEE ALSO: the functions the section names, then the others of its group in api.md on the
//!   same object (`MPI_Comm_...`), and where the documents are installed.
//!
//! It reads the Markdown the two documents use (paragraphs, lists, fenced code, tables, code
//! spans, bold, emphasis, links) and fails on a section it cannot turn into a page, so a change
//! to the documents that would lose part of a page is seen at once: `tests/docs.rs` runs it.
//!
//! Only std: `ci/install` compiles this file with rustc and runs it (it is no target of the
//! crate, which stays one library); `tests/docs.rs` includes it, so clippy and rustfmt see it.

use std::fmt::Write as _;

/// A page: the file name without `.3`, and its text.
pub struct Page {
    pub name: String,
    pub text: String,
}

/// The width of a line of text under a section heading at 80 columns (man's default line
/// length of 78 less the 7 of the indentation).
const WIDTH: usize = 71;
/// The space tbl leaves between two columns.
const COLUMN_GAP: usize = 3;

/// Every page, in api.md's order.
pub fn pages(api: &str, attributes: &str, version: &str) -> Result<Vec<Page>, String> {
    let api_doc = Doc::parse(api);
    let functions = api_doc.functions().map_err(|e| format!("api.md, {e}"))?;
    if functions.is_empty() {
        return Err("api.md: no `### MPI_...` section".into());
    }
    let in_api = |e: String| format!("api.md: {e}");
    let shared = Shared {
        conventions: api_doc.blocks_of("Conventions").map_err(in_api)?,
        predefined_callbacks: api_doc.blocks_of("Predefined callbacks").map_err(in_api)?,
        error_classes: api_doc.blocks_of("Error classes").map_err(in_api)?,
        values: Doc::parse(attributes)
            .blocks_of("Values and their language tags")
            .map_err(|e| format!("attributes.md: {e}"))?,
        names: functions.iter().map(|f| f.name.clone()).collect(),
        version: version.to_string(),
    };
    functions
        .iter()
        .map(|function| {
            page(function, &functions, &shared)
                .map_err(|e| format!("api.md, section {}: {e}", function.name))
        })
        .collect()
}

// ---- Markdown ------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Block {
    /// Source lines, joined by newlines.
    Paragraph(String),
    Code {
        language: String,
        text: String,
    },
    /// Items, each a sequence of blocks.
    List(Vec<Vec<Block>>),
    /// Rows of cells, the header row first.
    Table(Vec<Vec<String>>),
    Heading(String),
}

fn is_list_item(line: &str) -> bool {
    line.starts_with("- ") || line.starts_with("* ")
}

/// The blocks of lines whose indentation has been removed. A line that is neither indented
/// nor an item ends a list (docs write a paragraph after a list that way).
fn parse_blocks(lines: &[&str]) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() {
            i += 1;
        } else if let Some(language) = line.strip_prefix("```") {
            let start = i + 1;
            i = start;
            while i < lines.len() && !lines[i].starts_with("```") {
                i += 1;
            }
            blocks.push(Block::Code {
                language: language.trim().to_string(),
                text: lines[start..i.min(lines.len())].join("\n"),
            });
            i += 1;
        } else if line.starts_with('#') {
            let level = line.chars().take_while(|&c| c == '#').count();
            blocks.push(Block::Heading(line[level..].trim().to_string()));
            i += 1;
        } else if line.starts_with('|') {
            let mut rows = Vec::new();
            while i < lines.len() && lines[i].starts_with('|') {
                let cells = table_cells(lines[i]);
                let rule = cells
                    .iter()
                    .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')));
                if !rule {
                    rows.push(cells);
                }
                i += 1;
            }
            blocks.push(Block::Table(rows));
        } else if is_list_item(line) {
            let mut items = Vec::new();
            while i < lines.len() && is_list_item(lines[i]) {
                let mut item = vec![&lines[i][2..]];
                i += 1;
                loop {
                    match lines.get(i) {
                        Some(l) if l.starts_with("  ") => item.push(&l[2..]),
                        Some(l) if l.trim().is_empty() => {
                            // A blank line inside the item when the next line is indented.
                            match lines.get(i + 1) {
                                Some(next) if next.starts_with("  ") => item.push(""),
                                _ => break,
                            }
                        }
                        _ => break,
                    }
                    i += 1;
                }
                items.push(parse_blocks(&item));
                while i < lines.len() && lines[i].trim().is_empty() {
                    match lines.get(i + 1) {
                        Some(next) if is_list_item(next) => i += 1,
                        _ => break,
                    }
                }
            }
            blocks.push(Block::List(items));
        } else {
            let start = i;
            while i < lines.len() {
                let l = lines[i];
                let ends = l.trim().is_empty()
                    || l.starts_with("```")
                    || l.starts_with('#')
                    || l.starts_with('|')
                    || (i > start && is_list_item(l));
                if ends {
                    break;
                }
                i += 1;
            }
            let text: Vec<&str> = lines[start..i].iter().map(|l| l.trim()).collect();
            blocks.push(Block::Paragraph(text.join("\n")));
        }
    }
    blocks
}

/// The cells of a table row: `| a | b |` gives `a`, `b` (`\|` is a `|` in a cell).
fn table_cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => cells.push(String::new()),
            _ => cells.last_mut().unwrap().push(c),
        }
    }
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// A Markdown document as its `## ` parts.
struct Doc<'a> {
    /// (heading, lines up to the next `## ` heading)
    parts: Vec<(String, Vec<&'a str>)>,
}

impl<'a> Doc<'a> {
    fn parse(text: &'a str) -> Doc<'a> {
        let mut parts: Vec<(String, Vec<&str>)> = vec![(String::new(), Vec::new())];
        let mut fenced = false;
        for line in text.lines() {
            if line.starts_with("```") {
                fenced = !fenced;
            }
            match line.strip_prefix("## ") {
                Some(heading) if !fenced => parts.push((heading.trim().to_string(), Vec::new())),
                _ => parts.last_mut().unwrap().1.push(line),
            }
        }
        Doc { parts }
    }

    /// The blocks of the part headed `title`, or `N. title`.
    fn blocks_of(&self, title: &str) -> Result<Vec<Block>, String> {
        self.parts
            .iter()
            .find(|(heading, _)| {
                let unnumbered = heading
                    .split_once(". ")
                    .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                    .map_or(heading.as_str(), |(_, rest)| rest);
                unnumbered == title
            })
            .map(|(_, lines)| parse_blocks(lines))
            .ok_or_else(|| format!("no part `## {title}`"))
    }

    /// The `### MPI_X` sections, with the `## ` part each belongs to.
    fn functions(&self) -> Result<Vec<Function>, String> {
        let mut functions = Vec::new();
        for (group, lines) in &self.parts {
            let mut current: Option<(String, Vec<&str>)> = None;
            let mut fenced = false;
            for line in lines.iter().copied().chain(std::iter::once("### ")) {
                if line.starts_with("```") {
                    fenced = !fenced;
                }
                match line.strip_prefix("### ") {
                    Some(name) if !fenced => {
                        if let Some((name, body)) = current.take() {
                            functions.push(Function::parse(name, group, &parse_blocks(&body))?);
                        }
                        let name = name.trim();
                        if name.starts_with("MPI_") {
                            current = Some((name.to_string(), Vec::new()));
                        }
                    }
                    _ => {
                        if let Some((_, body)) = current.as_mut() {
                            body.push(line);
                        }
                    }
                }
            }
        }
        Ok(functions)
    }
}

// ---- A function's section ------------------------------------------------------------------

struct Function {
    name: String,
    group: String,
    /// The blocks before the prototype.
    description: Vec<Block>,
    /// From the prototype to the errors: the C prototype, each Fortran interface with the
    /// paragraph that names it, notes between them.
    synopsis: Vec<Block>,
    c_prototype: String,
    /// The `mpif.h`/`use mpi` and the `use mpi_f08` interfaces, if the function has them.
    fortran: Vec<String>,
    errors: Vec<Vec<Block>>,
    /// Blocks after the errors.
    after_errors: Vec<Block>,
}

impl Function {
    fn parse(name: String, group: &str, blocks: &[Block]) -> Result<Function, String> {
        let fail = |what: &str| format!("section {name}: {what}");
        let first_code = blocks
            .iter()
            .position(|b| matches!(b, Block::Code { .. }))
            .ok_or_else(|| fail("no C prototype"))?;
        let errors_at = blocks
            .iter()
            .position(|b| matches!(b, Block::Paragraph(p) if p == "Errors:"))
            .ok_or_else(|| fail("no `Errors:` paragraph"))?;
        let errors = match blocks.get(errors_at + 1) {
            Some(Block::List(items)) => items.clone(),
            _ => return Err(fail("`Errors:` is not followed by a list")),
        };
        if errors_at < first_code {
            return Err(fail("the errors come before the prototype"));
        }
        let description = blocks[..first_code].to_vec();
        if !matches!(description.first(), Some(Block::Paragraph(_))) {
            return Err(fail("no description before the prototype"));
        }
        let synopsis = blocks[first_code..errors_at].to_vec();
        let mut c_prototype = None;
        let mut fortran = Vec::new();
        for block in &synopsis {
            if let Block::Code { language, text } = block {
                match language.as_str() {
                    "c" if c_prototype.is_none() => c_prototype = Some(text.trim().to_string()),
                    "fortran" => fortran.push(text.clone()),
                    other => return Err(fail(&format!("unexpected code block `{other}`"))),
                }
            }
        }
        let c_prototype = c_prototype.ok_or_else(|| fail("the first code block is not C"))?;
        if !c_prototype.ends_with(");") || !c_prototype.contains(&format!(" {name}(")) {
            return Err(fail(&format!(
                "`{c_prototype}` is not a prototype of {name}"
            )));
        }
        if fortran.len() > 2 {
            return Err(fail("more than two Fortran interfaces"));
        }
        Ok(Function {
            group: group.to_string(),
            description,
            synopsis,
            c_prototype,
            fortran,
            errors,
            after_errors: blocks[errors_at + 2..].to_vec(),
            name,
        })
    }

    /// The arguments: the C prototype's, then the Fortran-only ones (`ierror`).
    fn arguments(&self) -> Result<Vec<Argument>, String> {
        let (_, list) = self
            .c_prototype
            .trim_end_matches(");")
            .split_once('(')
            .ok_or("no argument list")?;
        let fortran: Vec<Vec<Declaration>> = self
            .fortran
            .iter()
            .map(|block| declarations(block))
            .collect::<Result<_, _>>()?;
        let find = |binding: usize, name: &str| -> Option<Declaration> {
            fortran
                .get(binding)
                .and_then(|ds| ds.iter().find(|d| d.name == name).cloned())
        };
        let mut arguments = Vec::new();
        if list.trim() != "void" {
            for arg in list.split(", ") {
                // A C variadic tail (`MPI_Pcontrol(const int level, ...)`).
                if arg.trim() == "..." {
                    arguments.push(Argument {
                        name: "...".to_string(),
                        c_type: Some("...".to_string()),
                        mpi: None,
                        mpi_f08: None,
                    });
                    continue;
                }
                // An array parameter (`MPI_Request array_of_requests[]`, `int ranges[][3]`)
                // is a pointer.
                let (arg, array) = match arg.trim().find('[') {
                    Some(at) => (arg.trim()[..at].trim_end(), &arg.trim()[at..]),
                    None => (arg.trim(), ""),
                };
                let at = arg
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .ok_or_else(|| format!("argument `{arg}` has no type"))?;
                let (c_type, name) = arg.split_at(at + 1);
                arguments.push(Argument {
                    name: name.to_string(),
                    c_type: Some(format!("{}{array}", c_type.trim())),
                    mpi: find(0, name),
                    mpi_f08: find(1, name),
                });
            }
        }
        for d in fortran.iter().flatten() {
            if !arguments.iter().any(|a| a.name == d.name) {
                arguments.push(Argument {
                    name: d.name.clone(),
                    c_type: None,
                    mpi: find(0, &d.name),
                    mpi_f08: find(1, &d.name),
                });
            }
        }
        Ok(arguments)
    }
}

/// A Fortran dummy argument as an interface declares it.
#[derive(Clone, Debug)]
struct Declaration {
    name: String,
    /// The type with its attributes but the intent and `optional`: `integer`,
    /// `type(MPI_Comm)`, `integer(kind=MPI_ADDRESS_KIND)`, `integer status(MPI_STATUS_SIZE)`.
    shown: String,
    intent: Option<String>,
    optional: bool,
}

/// The declarations of an interface block (`SUBROUTINE X(a, b)` then `type, intent(in) :: a`).
fn declarations(block: &str) -> Result<Vec<Declaration>, String> {
    let mut lines = block.lines();
    let head = lines.next().ok_or("an empty Fortran block")?;
    // A function's result type may have parentheses of its own
    // (`INTEGER(KIND=MPI_ADDRESS_KIND) FUNCTION MPI_AINT_ADD(base, disp)`).
    let head = head.split_once(" FUNCTION ").map_or(head, |(_, rest)| rest);
    let (_, names) = head
        .split_once('(')
        .ok_or("a Fortran header without arguments")?;
    // The argument list ends at the first `)`: a BIND(C, NAME=...) clause may follow.
    let names = names.split_once(')').map_or(names, |(inside, _)| inside);
    let names: Vec<&str> = names
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    let mut found = Vec::new();
    for line in lines {
        let (spec, name) = line
            .split_once("::")
            .ok_or_else(|| format!("`{}` is not a declaration", line.trim()))?;
        let name = name.trim();
        let (name, dimensions) = match name.split_once('(') {
            Some((n, d)) => (n.trim(), format!("({d}")),
            None => (name, String::new()),
        };
        let mut kept = Vec::new();
        let mut intent = None;
        let mut optional = false;
        for attribute in split_attributes(spec) {
            if let Some(i) = attribute
                .strip_prefix("intent(")
                .and_then(|r| r.strip_suffix(')'))
            {
                intent = Some(i.to_string());
            } else if attribute == "optional" {
                optional = true;
            } else {
                kept.push(attribute);
            }
        }
        let mut shown = kept.join(", ");
        if !dimensions.is_empty() {
            shown = format!("{shown} {name}{dimensions}");
        }
        if !names.contains(&name) {
            return Err(format!("`{name}` is declared but not an argument"));
        }
        found.push(Declaration {
            name: name.to_string(),
            shown,
            intent,
            optional,
        });
    }
    for name in &names {
        if !found.iter().any(|d| d.name == *name) {
            return Err(format!("Fortran argument `{name}` is not declared"));
        }
    }
    Ok(found)
}

/// `integer(kind=K), intent(in)` gives `integer(kind=K)`, `intent(in)`: commas inside
/// parentheses do not split.
fn split_attributes(spec: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut depth = 0usize;
    for c in spec.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut().unwrap().push(c);
    }
    parts
        .iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

struct Argument {
    name: String,
    c_type: Option<String>,
    mpi: Option<Declaration>,
    mpi_f08: Option<Declaration>,
}

impl Argument {
    /// `in`, `out`, `in-out` from the Fortran intent (none given: in); C-only pointers have none.
    fn direction(&self) -> Option<&'static str> {
        let declared = self.mpi.as_ref().or(self.mpi_f08.as_ref());
        match declared {
            Some(d) => Some(match d.intent.as_deref() {
                Some("out") => "out",
                Some("inout") => "in-out",
                _ => "in",
            }),
            None if self.c_type.as_deref().is_some_and(|t| t.contains('*')) => None,
            None => Some("in"),
        }
    }
}

// ---- roff ----------------------------------------------------------------------------------

/// Characters outside ASCII that the documents use, and what an ASCII terminal shows instead.
const FALLBACKS: &[(char, &str)] = &[
    ('\u{a7}', "section\\ "),
    ('\u{2026}', "..."),
    ('\u{2014}', "--"),
    ('\u{2013}', "-"),
    ('\u{d7}', "x"),
    ('\u{2192}', "->"),
    ('\u{2264}', "<="),
    ('\u{2265}', ">="),
];

/// One character of text for roff: `\` and non-ASCII characters as escapes; in code, `-` is
/// a minus (what a reader copies), elsewhere a hyphen.
fn escape_char(c: char, code: bool, out: &mut String) {
    match c {
        '\\' => out.push_str("\\e"),
        '-' if code => out.push_str("\\-"),
        '\u{a0}' => out.push_str("\\~"),
        c if c.is_ascii() => out.push(c),
        c => {
            let _ = write!(out, "\\[u{:04X}]", c as u32);
        }
    }
}

fn escape(text: &str, code: bool) -> String {
    let mut out = String::new();
    for c in text.chars() {
        escape_char(c, code, &mut out);
    }
    out
}

/// Lines of filled text that roff must not read as requests (a leading space would break the
/// line, so there is none).
fn text_lines(text: &str) -> String {
    code_lines(
        &text
            .lines()
            .map(str::trim_start)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Lines of text as they are (for no-fill code) that roff must not read as requests.
fn code_lines(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with('.') || line.starts_with('\'') {
            out.push_str("\\&");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Inline Markdown as roff: code spans in bold (arguments of the page in italics), never
/// hyphenated; bold, emphasis, links as their text. `bold`: already inside bold text.
fn inline(text: &str, arguments: &[String], bold: bool) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let find = |from: usize, what: &str| -> Option<usize> {
        let what: Vec<char> = what.chars().collect();
        (from..chars.len()).find(|&j| chars[j..].starts_with(&what))
    };
    let (on_bold, off) = if bold { ("", "") } else { ("\\fB", "\\fR") };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if chars.get(i + 1).is_some_and(|n| n.is_ascii_punctuation()) => {
                escape_char(chars[i + 1], false, &mut out);
                i += 2;
            }
            '`' => match find(i + 1, "`") {
                Some(end) => {
                    let code: String = chars[i + 1..end].iter().collect();
                    if !bold && arguments.contains(&code) {
                        let _ = write!(out, "\\fI\\%{}\\fR", escape(&code, true));
                    } else {
                        let _ = write!(out, "{on_bold}\\%{}{off}", escape(&code, true));
                    }
                    i = end + 1;
                }
                None => {
                    out.push('`');
                    i += 1;
                }
            },
            '*' if chars.get(i + 1) == Some(&'*') => match find(i + 2, "**") {
                Some(end) => {
                    let inner: String = chars[i + 2..end].iter().collect();
                    let _ = write!(out, "{on_bold}{}{off}", inline(&inner, arguments, true));
                    i = end + 2;
                }
                None => {
                    out.push_str("**");
                    i += 2;
                }
            },
            '*' if chars.get(i + 1).is_some_and(|n| n.is_alphanumeric()) => {
                let end = (i + 2..chars.len()).find(|&j| {
                    chars[j] == '*'
                        && chars[j - 1].is_alphanumeric()
                        && !chars.get(j + 1).is_some_and(|n| n.is_alphanumeric())
                });
                match end {
                    Some(end) => {
                        let inner: String = chars[i + 1..end].iter().collect();
                        let (on, off) = if bold { ("", "") } else { ("\\fI", "\\fR") };
                        let _ = write!(out, "{on}{}{off}", inline(&inner, arguments, bold));
                        i = end + 1;
                    }
                    None => {
                        out.push('*');
                        i += 1;
                    }
                }
            }
            '[' => {
                // `[label](target)`, the label without brackets.
                let close = find(i + 1, "]").filter(|&c| chars.get(c + 1) == Some(&'('));
                let end = close.and_then(|c| find(c + 2, ")"));
                match (close, end) {
                    (Some(close), Some(end)) => {
                        let label: String = chars[i + 1..close].iter().collect();
                        out.push_str(&inline(&label, arguments, bold));
                        i = end + 1;
                    }
                    _ => {
                        out.push('[');
                        i += 1;
                    }
                }
            }
            // A space inside a number (2 097 152) does not break.
            ' ' if i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.len() >= i + 4
                && chars[i + 1..i + 4].iter().all(char::is_ascii_digit)
                && !chars.get(i + 4).is_some_and(char::is_ascii_digit) =>
            {
                out.push_str("\\~");
                i += 1;
            }
            _ => {
                escape_char(c, false, &mut out);
                i += 1;
            }
        }
    }
    out
}

/// Inline Markdown as plain text (for NAME and for measuring table cells).
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' => {}
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
            }
            '\\' if chars.peek().is_some_and(|n| n.is_ascii_punctuation()) => {
                out.push(chars.next().unwrap());
            }
            _ => out.push(c),
        }
    }
    // Links keep their text.
    let mut result = String::new();
    let mut rest = out.as_str();
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        result.push_str(&rest[..open]);
        result.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    result.push_str(rest);
    result
}

/// Blocks as roff body text.
fn render(blocks: &[Block], arguments: &[String], out: &mut String) {
    for block in blocks {
        match block {
            Block::Paragraph(text) => {
                out.push_str(".PP\n");
                out.push_str(&text_lines(&inline(text, arguments, false)));
            }
            Block::Code { text, .. } => {
                out.push_str(".PP\n.RS 4\n.nf\n");
                out.push_str(&code_lines(&escape(text, true)));
                out.push_str(".fi\n.RE\n");
            }
            Block::List(items) => render_list(items, arguments, out),
            Block::Table(rows) => render_table(rows, arguments, out),
            Block::Heading(text) => {
                let _ = writeln!(out, ".SS \"{}\"", escape(&plain(text), false));
            }
        }
    }
}

/// A bulleted list; an item's later paragraphs and nested lists stay under its bullet.
fn render_list(items: &[Vec<Block>], arguments: &[String], out: &mut String) {
    for item in items {
        out.push_str(".IP \\(bu 2\n");
        for (i, block) in item.iter().enumerate() {
            match block {
                Block::Paragraph(text) => {
                    if i > 0 {
                        out.push_str(".IP\n");
                    }
                    out.push_str(&text_lines(&inline(text, arguments, false)));
                }
                other => {
                    out.push_str(".RS 2\n");
                    render(std::slice::from_ref(other), arguments, out);
                    out.push_str(".RE\n");
                }
            }
        }
    }
}

/// A table for tbl, its columns narrowed to fit 80 columns (the cells then wrap inside their
/// column); a table that cannot fit becomes a list, one item per row.
fn render_table(rows: &[Vec<String>], arguments: &[String], out: &mut String) {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    if columns == 0 {
        return;
    }
    let cell = |row: &Vec<String>, j: usize| row.get(j).cloned().unwrap_or_default();
    let natural: Vec<usize> = (0..columns)
        .map(|j| {
            rows.iter()
                .map(|r| plain(&cell(r, j)).chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let longest_word: Vec<usize> = (0..columns)
        .map(|j| {
            rows.iter()
                .flat_map(|r| {
                    plain(&cell(r, j))
                        .split(' ')
                        .map(|w| w.chars().count())
                        .collect::<Vec<_>>()
                })
                .max()
                .unwrap_or(0)
        })
        .collect();
    let available = WIDTH.saturating_sub(COLUMN_GAP * (columns - 1));
    let widths_at = |cap: usize| -> Vec<usize> {
        (0..columns)
            .map(|j| natural[j].min(cap.max(longest_word[j])))
            .collect()
    };
    let cap = (1..=natural.iter().copied().max().unwrap_or(1))
        .rev()
        .find(|&cap| widths_at(cap).iter().sum::<usize>() <= available);
    let Some(cap) = cap else {
        // Too wide for a table: each row as an item, its first cell as the tag.
        let header = &rows[0];
        for row in &rows[1..] {
            let _ = writeln!(
                out,
                ".TP\n{}",
                text_lines(&inline(&cell(row, 0), arguments, false)).trim_end()
            );
            for j in 1..columns {
                out.push_str(&text_lines(&format!(
                    "{}: {}",
                    inline(&cell(header, j), arguments, false),
                    inline(&cell(row, j), arguments, false)
                )));
                out.push_str(".br\n");
            }
        }
        out.push_str(".PP\n");
        return;
    };
    let widths = widths_at(cap);
    let format = |bold: bool| -> String {
        widths
            .iter()
            .map(|w| format!("l{}w({w}n)", if bold { "b" } else { "" }))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = write!(
        out,
        ".PP\n.TS\ntab(|);\n{}\n{} .\n",
        format(true),
        format(false)
    );
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<String> = (0..columns)
            .map(|j| {
                let text = inline(&cell(row, j), arguments, r == 0);
                // Text blocks: left-aligned, not hyphenated, so narrow columns stay readable.
                format!("T{{\n.na\n.nh\n{}T}}", text_lines(&text))
            })
            .collect();
        out.push_str(&cells.join("|"));
        out.push('\n');
        if r == 0 {
            out.push_str("_\n");
        }
    }
    out.push_str(".TE\n");
}

/// Code lines no wider than `WIDTH`: a C prototype broken after commas, its arguments aligned
/// under the first (or indented by four when that is too wide).
fn wrap_c(prototype: &str) -> Vec<String> {
    wrap_call(prototype, "")
}

/// A Fortran interface with its header line broken with `&` continuations.
fn wrap_fortran(block: &str) -> Vec<String> {
    let mut lines = block.lines();
    let mut wrapped = wrap_call(lines.next().unwrap_or_default(), " &");
    wrapped.extend(lines.map(str::to_string));
    wrapped
}

/// `head(a, b, c)tail` on lines of at most `WIDTH`, `continuation` ending each broken line.
fn wrap_call(line: &str, continuation: &str) -> Vec<String> {
    if line.len() <= WIDTH {
        return vec![line.to_string()];
    }
    let (Some(open), Some(close)) = (line.find('('), line.rfind(')')) else {
        return vec![line.to_string()];
    };
    let head = &line[..=open];
    let tail = &line[close..];
    let args: Vec<&str> = line[open + 1..close].split(", ").collect();
    let pack = |indent: usize, first: &str| -> Vec<String> {
        let mut lines = Vec::new();
        let mut current = first.to_string();
        for (k, arg) in args.iter().enumerate() {
            let piece = if k + 1 == args.len() {
                format!("{arg}{tail}")
            } else {
                format!("{arg},")
            };
            let starts_line = current.trim().is_empty() || current.ends_with('(');
            let candidate = if starts_line {
                format!("{current}{piece}")
            } else {
                format!("{current} {piece}")
            };
            if candidate.len() + continuation.len() > WIDTH && !starts_line {
                lines.push(format!("{current}{continuation}"));
                current = format!("{}{piece}", " ".repeat(indent));
            } else {
                current = candidate;
            }
        }
        lines.push(current);
        lines
    };
    let aligned = pack(head.len(), head);
    if aligned.iter().all(|l| l.len() <= WIDTH) {
        return aligned;
    }
    let mut lines = vec![format!("{head}{continuation}")];
    lines.extend(pack(4, "    "));
    lines
}

// ---- A page --------------------------------------------------------------------------------

struct Shared {
    conventions: Vec<Block>,
    predefined_callbacks: Vec<Block>,
    error_classes: Vec<Block>,
    values: Vec<Block>,
    names: Vec<String>,
    version: String,
}

/// The first sentence of a paragraph, for NAME (`e.g.` and `i.e.` end no sentence).
fn first_sentence(text: &str) -> String {
    let text = plain(&text.replace('\n', " "));
    let mut end = text.len();
    for (at, _) in text.match_indices(". ") {
        let before = &text[..at];
        if !before.ends_with("e.g") && !before.ends_with("i.e") {
            end = at;
            break;
        }
    }
    text[..end].trim_end_matches('.').trim().to_string()
}

/// The code spans of blocks that are function names.
fn named_functions(blocks: &[Block], names: &[String], found: &mut Vec<String>) {
    for block in blocks {
        match block {
            Block::Paragraph(text) => {
                for (k, piece) in text.split('`').enumerate() {
                    if k % 2 == 1
                        && names.iter().any(|n| n == piece)
                        && !found.iter().any(|f| f == piece)
                    {
                        found.push(piece.to_string());
                    }
                }
            }
            Block::List(items) => {
                for item in items {
                    named_functions(item, names, found);
                }
            }
            _ => {}
        }
    }
}

/// `MPI_Comm_set_attr` is about `Comm`; `MPI_Init_thread` about `Init`.
fn object(name: &str) -> &str {
    let rest = name.strip_prefix("MPI_").unwrap_or(name);
    rest.split('_').next().unwrap_or(rest)
}

fn is_attribute_function(name: &str) -> bool {
    name.ends_with("_attr") || name.starts_with("MPI_Attr_")
}

fn is_keyval_creation(name: &str) -> bool {
    name.ends_with("_create_keyval") || name == "MPI_Keyval_create"
}

/// The label of a convention of api.md: `Errors` for `- **Errors**: ...`.
fn label(item: &[Block]) -> Option<&str> {
    match item.first() {
        Some(Block::Paragraph(p)) => p.strip_prefix("**")?.split_once("**: ").map(|(l, _)| l),
        _ => None,
    }
}

/// The item of api.md's conventions labelled `name`.
fn convention<'b>(conventions: &'b [Block], name: &str) -> Option<&'b Vec<Block>> {
    conventions.iter().find_map(|b| match b {
        Block::List(items) => items.iter().find(|item| label(item) == Some(name)),
        _ => None,
    })
}

/// A convention's blocks, its label removed from the first paragraph.
fn unlabelled(item: &[Block]) -> Vec<Block> {
    let mut blocks = item.to_vec();
    if let Some(Block::Paragraph(p)) = blocks.first_mut() {
        if let Some((_, rest)) = p.split_once("**: ") {
            let mut rest = rest.to_string();
            if let Some(first) = rest.get(..1) {
                let upper = first.to_uppercase();
                rest.replace_range(..1, &upper);
            }
            *p = rest;
        }
    }
    blocks
}

fn page(function: &Function, all: &[Function], shared: &Shared) -> Result<Page, String> {
    let name = &function.name;
    let arguments = function.arguments()?;
    let argument_names: Vec<String> = arguments.iter().map(|a| a.name.clone()).collect();
    let mut body = String::new();

    // SYNOPSIS
    body.push_str(".SH SYNOPSIS\n.SS C\n.nf\n.B #include <mpi.h>\n.sp\n");
    body.push_str(&code_lines(&escape(
        &wrap_c(&function.c_prototype).join("\n"),
        true,
    )));
    body.push_str(".fi\n");
    let mut fortran_blocks = 0;
    let mut pending_title = None;
    for block in &function.synopsis {
        match block {
            Block::Code { language, .. } if language == "c" => {}
            Block::Code { text, .. } => {
                let title = pending_title
                    .take()
                    .unwrap_or_else(|| "Fortran".to_string());
                let _ = writeln!(body, ".SS \"{}\"\n.nf", escape(&title, false));
                body.push_str(&code_lines(&escape(&wrap_fortran(text).join("\n"), true)));
                body.push_str(".fi\n");
                fortran_blocks += 1;
            }
            // `mpif.h`, `use mpi`: introduces the next interface.
            Block::Paragraph(p) if p.ends_with(':') && !p.contains('\n') => {
                pending_title = Some(format!("Fortran: {}", plain(p.trim_end_matches(':'))));
            }
            other => render(std::slice::from_ref(other), &argument_names, &mut body),
        }
    }
    if fortran_blocks != function.fortran.len() || pending_title.is_some() {
        return Err("a Fortran title without its interface".into());
    }

    // DESCRIPTION
    body.push_str(".SH DESCRIPTION\n");
    render(&function.description, &argument_names, &mut body);

    // ARGUMENTS
    if !arguments.is_empty() {
        body.push_str(".SH ARGUMENTS\n");
        for argument in &arguments {
            let mut facts = Vec::new();
            match (&argument.c_type, &argument.mpi, &argument.mpi_f08) {
                (Some(c), None, None) => match argument.direction() {
                    Some(direction) => facts.push(format!("{direction}; C: `{c}`")),
                    None => facts.push(format!("C only: `{c}`")),
                },
                (Some(c), Some(m), Some(f)) if m.shown == f.shown => facts.push(format!(
                    "{}; C: `{c}`; Fortran: `{}`",
                    argument.direction().unwrap_or_default(),
                    m.shown
                )),
                (None, Some(m), Some(f)) if m.shown == f.shown => facts.push(format!(
                    "{}; Fortran only: `{}`",
                    argument.direction().unwrap_or_default(),
                    m.shown
                )),
                (c, m, f) => {
                    facts.push(argument.direction().unwrap_or_default().to_string());
                    if let Some(c) = c {
                        facts.push(format!("C: `{c}`"));
                    }
                    if let Some(m) = m {
                        facts.push(format!("`mpif.h`, `use mpi`: `{}`", m.shown));
                    }
                    if let Some(f) = f {
                        facts.push(format!("`use mpi_f08`: `{}`", f.shown));
                    }
                }
            }
            if argument.mpi_f08.as_ref().is_some_and(|f| f.optional) {
                facts.push("optional in `use mpi_f08`".to_string());
            }
            let _ = write!(
                body,
                ".TP\n.I {}\n{}",
                escape(&argument.name, true),
                text_lines(&format!("{}.", inline(&facts.join("; "), &[], false)))
            );
        }
    }

    // ERRORS
    body.push_str(".SH ERRORS\n");
    render_list(&function.errors, &argument_names, &mut body);
    render(&function.after_errors, &argument_names, &mut body);
    if let Some(errors) = convention(&shared.conventions, "Errors") {
        render(&unlabelled(errors), &argument_names, &mut body);
    }

    // Sections of some pages.
    let mut needs_tbl = false;
    let mut extra = |title: &str, blocks: &[Block], body: &mut String| {
        let _ = writeln!(body, ".SH \"{title}\"");
        render(blocks, &argument_names, body);
        needs_tbl |= blocks.iter().any(|b| matches!(b, Block::Table(_)));
    };
    if is_attribute_function(name) {
        extra("VALUES ACROSS LANGUAGES", &shared.values, &mut body);
    }
    if is_keyval_creation(name) {
        extra(
            "PREDEFINED CALLBACKS",
            &shared.predefined_callbacks,
            &mut body,
        );
    }
    if name == "MPI_Error_class" || name == "MPI_Error_string" {
        extra("ERROR CLASSES", &shared.error_classes, &mut body);
    }

    // NOTES: the conventions but the errors.
    body.push_str(".SH NOTES\n");
    for block in &shared.conventions {
        match block {
            Block::List(items) => {
                for item in items.iter().filter(|item| label(item) != Some("Errors")) {
                    render(&unlabelled(item), &argument_names, &mut body);
                }
            }
            other => render(std::slice::from_ref(other), &argument_names, &mut body),
        }
    }

    // SEE ALSO
    let mut related = Vec::new();
    named_functions(&function.description, &shared.names, &mut related);
    named_functions(&function.synopsis, &shared.names, &mut related);
    named_functions(
        &[Block::List(function.errors.clone())],
        &shared.names,
        &mut related,
    );
    for other in all {
        if other.group == function.group
            && object(&other.name) == object(name)
            && !related.contains(&other.name)
        {
            related.push(other.name.clone());
        }
    }
    related.retain(|r| r != name);
    // Not adjusted: a list of names spread over the line reads badly.
    body.push_str(".SH \"SEE ALSO\"\n.na\n");
    for (k, r) in related.iter().enumerate() {
        let comma = if k + 1 < related.len() { "," } else { "" };
        let _ = writeln!(body, ".BR \\%{} (3){comma}", escape(r, true));
    }
    body.push_str(".ad\n.PP\n");
    body.push_str(&text_lines(&inline(
        "The documents named here by file (`api.md`, `attributes.md`, `semantics.md`, ...) are\n\
         installed in `share/doc/mpiattr/docs` under mpiattr's prefix.",
        &[],
        false,
    )));

    // The page: the header, NAME, then the rest.
    let mut text = String::new();
    if needs_tbl {
        text.push_str("'\\\" t\n");
    }
    let _ = writeln!(
        text,
        ".\\\" Made by mpiattr's ci/manpages.rs from docs/api.md and docs/attributes.md."
    );
    let _ = writeln!(
        text,
        ".TH {} 3 \"\" \"mpiattr {}\" \"mpiattr\"",
        escape(name, true),
        escape(&shared.version, false)
    );
    // Every character outside ASCII went out as \[uXXXX]: give ASCII terminals a fallback.
    for (c, fallback) in FALLBACKS {
        let glyph = format!("\\[u{:04X}]", *c as u32);
        if body.contains(&glyph) {
            let _ = writeln!(text, ".if \\n(.g .fchar {glyph} {fallback}");
        }
    }
    let Some(Block::Paragraph(description)) = function.description.first() else {
        return Err("no description".into());
    };
    let _ = write!(
        text,
        ".SH NAME\n{} \\- {}\n",
        escape(name, true),
        escape(&first_sentence(description), false)
    );
    text.push_str(&body);
    Ok(Page {
        name: name.clone(),
        text,
    })
}

#[cfg(not(test))]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: manpages DOCS_DIR OUT_DIR VERSION");
        std::process::exit(2);
    }
    let docs = std::path::Path::new(&args[1]);
    let read = |file: &str| {
        std::fs::read_to_string(docs.join(file)).unwrap_or_else(|e| {
            eprintln!("manpages: cannot read {}: {e}", docs.join(file).display());
            std::process::exit(1);
        })
    };
    let pages = pages(&read("api.md"), &read("attributes.md"), &args[3]).unwrap_or_else(|e| {
        eprintln!("manpages: {e}");
        std::process::exit(1);
    });
    let out = std::path::Path::new(&args[2]);
    for page in pages {
        let path = out.join(format!("{}.3", page.name));
        if let Err(e) = std::fs::write(&path, page.text) {
            eprintln!("manpages: cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
    }
}
