//! Compile errors and their text form (docs/csir-original.md A4 and B §1.14).

use super::token::Pos;
use std::fmt;

/// One error at a 1-based source position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub col: u32,
    /// The message; the catalogue's text (docs/csir-original.md B §1.15) where the same
    /// error exists.
    pub message: String,
}

impl Diagnostic {
    /// An error at `pos`.
    pub fn new(pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            line: pos.line,
            col: pos.col,
            message: message.into(),
        }
    }
}

/// The errors of one failed compile: at most `Limits::errors` logged diagnostics in
/// the order they were found, and the total number of errors found
/// (docs/csir-original.md A4: later ones are counted but not logged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileErrors {
    name: String,
    source: String,
    diagnostics: Vec<Diagnostic>,
    total: usize,
}

impl CompileErrors {
    /// Bundle diagnostics for `name` (the empty name prints as `shader`).
    pub fn new(name: &str, source: &str, diagnostics: Vec<Diagnostic>, total: usize) -> Self {
        CompileErrors {
            name: name.to_string(),
            source: source.to_string(),
            total: total.max(diagnostics.len()),
            diagnostics,
        }
    }

    /// The logged diagnostics.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Errors found, including those beyond the logging limit.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The compile name as printed (empty → `shader`).
    pub fn name(&self) -> &str {
        if self.name.is_empty() {
            "shader"
        } else {
            &self.name
        }
    }

    /// Whether some diagnostic carries exactly `message`.
    pub fn has(&self, message: &str) -> bool {
        self.diagnostics.iter().any(|d| d.message == message)
    }
}

impl fmt::Display for CompileErrors {
    /// For each diagnostic: `NAME:LINE:COL: error: MESSAGE`, then the source line and
    /// a caret under the column (tabs of the source line are kept so the caret lines
    /// up). The two extra lines are omitted when the line is not in the source.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.diagnostics {
            writeln!(
                f,
                "{}:{}:{}: error: {}",
                self.name(),
                d.line,
                d.col,
                d.message
            )?;
            let Some(text) = source_line(&self.source, d.line) else {
                continue;
            };
            writeln!(f, "{text}")?;
            writeln!(f, "{}^", caret_pad(text, d.col))?;
        }
        let hidden = self.total - self.diagnostics.len();
        if hidden > 0 {
            let at_least = if self.total >= COUNTED_ERRORS {
                "at least "
            } else {
                ""
            };
            writeln!(
                f,
                "{}: {at_least}{hidden} more error{} not shown (the first {} are listed)",
                self.name(),
                if hidden == 1 { "" } else { "s" },
                self.diagnostics.len()
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileErrors {}

/// What goes before the caret under character column `col` (1-based) of `text`: a
/// tab for each tab, and for every other character as many spaces as it takes on a
/// terminal (Unicode East Asian Width: 2 for wide characters, 0 for combining marks).
fn caret_pad(text: &str, col: u32) -> String {
    let mut pad = String::new();
    for c in text
        .chars()
        .chain(std::iter::repeat(' '))
        .take(col.saturating_sub(1) as usize)
    {
        if c == '\t' {
            pad.push('\t');
        } else {
            let width = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            pad.extend(std::iter::repeat_n(' ', width));
        }
    }
    pad
}

/// Line `line` (1-based) of `source` without its CR/LF.
fn source_line(source: &str, line: u32) -> Option<&str> {
    let index = (line as usize).checked_sub(1)?;
    let text = source.split('\n').nth(index)?;
    Some(text.strip_suffix('\r').unwrap_or(text))
}

/// How many errors a compile counts before it stops looking for more (the first
/// `Limits::errors` of them are logged; the rest are only counted).
pub const COUNTED_ERRORS: usize = 100;

/// Collects diagnostics for one compile: drops exact duplicates (an inlined function
/// is lowered once per call), keeps the first `limit`, and counts the rest.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    limit: usize,
    logged: Vec<Diagnostic>,
    total: usize,
}

impl Diagnostics {
    /// An empty collector logging at most `limit` errors (at least one).
    pub fn new(limit: usize) -> Diagnostics {
        Diagnostics {
            limit: limit.max(1),
            logged: Vec::new(),
            total: 0,
        }
    }

    /// Record an error at `pos`.
    pub fn error(&mut self, pos: Pos, message: impl Into<String>) {
        let d = Diagnostic::new(pos, message);
        if self.logged.contains(&d) {
            return;
        }
        self.total += 1;
        if self.logged.len() < self.limit {
            self.logged.push(d);
        }
    }

    /// Errors found so far (logged or not).
    pub fn count(&self) -> usize {
        self.total
    }

    /// Whether enough errors were found that work can stop: [`COUNTED_ERRORS`] (or the
    /// logging limit if larger), so that the errors not logged are still counted for
    /// "N more errors not shown".
    pub fn full(&self) -> bool {
        self.total >= self.limit.max(COUNTED_ERRORS)
    }

    /// Whether no error was found.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Finish into the public error value.
    pub fn into_errors(self, name: &str, source: &str) -> CompileErrors {
        CompileErrors::new(name, source, self.logged, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_header_source_and_caret() {
        let src = "void main() {\n  x = 1;\n}\n";
        let e = CompileErrors::new(
            "a.frag",
            src,
            vec![Diagnostic::new(
                Pos { line: 2, col: 3 },
                "unknown identifier",
            )],
            1,
        );
        assert_eq!(
            e.to_string(),
            "a.frag:2:3: error: unknown identifier\n  x = 1;\n  ^\n"
        );
    }

    #[test]
    fn empty_name_and_missing_line() {
        let e = CompileErrors::new(
            "",
            "x",
            vec![Diagnostic::new(Pos { line: 9, col: 1 }, "m")],
            3,
        );
        assert_eq!(
            e.to_string(),
            "shader:9:1: error: m\nshader: 2 more errors not shown (the first 1 are listed)\n"
        );
        assert_eq!(e.total(), 3);
    }

    #[test]
    fn collector_dedupes_and_limits() {
        let mut d = Diagnostics::new(2);
        d.error(Pos::START, "a");
        d.error(Pos::START, "a");
        d.error(Pos::START, "b");
        d.error(Pos::START, "c");
        assert_eq!(d.count(), 3);
        assert!(!d.full(), "errors past the logging limit are still counted");
        for i in 0..COUNTED_ERRORS {
            d.error(Pos::START, format!("more {i}"));
        }
        assert!(d.full());
        let e = d.into_errors("n", "");
        assert_eq!(e.diagnostics().len(), 2);
        assert_eq!(e.total(), 3 + COUNTED_ERRORS);
        assert!(
            e.to_string()
                .ends_with("n: at least 101 more errors not shown (the first 2 are listed)\n")
        );
    }

    #[test]
    fn caret_keeps_tabs() {
        let e = CompileErrors::new(
            "t",
            "\tx;",
            vec![Diagnostic::new(Pos { line: 1, col: 2 }, "m")],
            1,
        );
        assert_eq!(e.to_string(), "t:1:2: error: m\n\tx;\n\t^\n");
    }

    #[test]
    fn caret_counts_wide_characters_twice() {
        // `/* 日本 */ x`: x is character 10, at display column 12.
        let e = CompileErrors::new(
            "t",
            "/* 日本 */ x",
            vec![Diagnostic::new(Pos { line: 1, col: 10 }, "m")],
            1,
        );
        assert_eq!(
            e.to_string(),
            "t:1:10: error: m\n/* 日本 */ x\n           ^\n"
        );
    }
}
