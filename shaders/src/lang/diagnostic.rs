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
            let pad: String = text
                .chars()
                .chain(std::iter::repeat(' '))
                .take(d.col.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            writeln!(f, "{pad}^")?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileErrors {}

/// Line `line` (1-based) of `source` without its CR/LF.
fn source_line(source: &str, line: u32) -> Option<&str> {
    let index = (line as usize).checked_sub(1)?;
    let text = source.split('\n').nth(index)?;
    Some(text.strip_suffix('\r').unwrap_or(text))
}

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

    /// Whether the logging limit is reached (work can stop).
    pub fn full(&self) -> bool {
        self.total >= self.limit
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
        assert_eq!(e.to_string(), "shader:9:1: error: m\n");
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
        assert!(d.full());
        let e = d.into_errors("n", "");
        assert_eq!(e.diagnostics().len(), 2);
        assert_eq!(e.total(), 3);
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
}
