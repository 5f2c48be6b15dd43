//! Compile errors and their text form (docs/csir-original.md A4 and B §1.14).

use super::token::Pos;
use std::fmt;

/// One error at a 1-based source position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// The compilation unit the line is in: an index into
    /// [`CompileErrors::unit_name`]'s units, 0 for a compile of one source.
    pub unit: usize,
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
            unit: 0,
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
    /// Each compilation unit's name and text, in the order the compile took them.
    units: Vec<(String, String)>,
    diagnostics: Vec<Diagnostic>,
    total: usize,
}

impl CompileErrors {
    /// Bundle diagnostics for one source `name` (the empty name prints as `shader`).
    pub fn new(name: &str, source: &str, diagnostics: Vec<Diagnostic>, total: usize) -> Self {
        Self::for_units(
            vec![(name.to_string(), source.to_string())],
            diagnostics,
            total,
        )
    }

    /// Bundle diagnostics of a compile of several units, given as (name, text); each
    /// diagnostic's `unit` indexes `units` (one past the end prints as the first).
    pub fn for_units(
        units: Vec<(String, String)>,
        diagnostics: Vec<Diagnostic>,
        total: usize,
    ) -> Self {
        CompileErrors {
            units,
            total: total.max(diagnostics.len()),
            diagnostics,
        }
    }

    /// The (name, text) of compilation unit `unit`, the first unit for an index past
    /// the end.
    fn unit(&self, unit: usize) -> Option<&(String, String)> {
        self.units.get(unit).or(self.units.first())
    }

    /// The name of compilation unit `unit` as printed (empty → `shader`).
    pub fn unit_name(&self, unit: usize) -> &str {
        match self.unit(unit) {
            Some((name, _)) if !name.is_empty() => name,
            _ => "shader",
        }
    }

    /// The text of compilation unit `unit` (empty when there is none).
    fn unit_source(&self, unit: usize) -> &str {
        self.unit(unit).map_or("", |(_, text)| text)
    }

    /// The logged diagnostics.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Errors found, including those beyond the logging limit.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The compile name as printed (empty → `shader`): the first unit's.
    pub fn name(&self) -> &str {
        self.unit_name(0)
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
                self.unit_name(d.unit),
                d.line,
                d.col,
                d.message
            )?;
            let Some(text) = source_line(self.unit_source(d.unit), d.line) else {
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

    /// Finish a compile of several units into the public error value: a line carries
    /// its unit in the bits above [`UNIT_LINE_BITS`] ([`unit_line`]).
    pub fn into_unit_errors(self, units: Vec<(String, String)>) -> CompileErrors {
        let logged = self
            .logged
            .into_iter()
            .map(|d| {
                let (unit, line) = split_unit_line(d.line);
                Diagnostic { unit, line, ..d }
            })
            .collect();
        CompileErrors::for_units(units, logged, self.total)
    }

    /// Take `other`'s errors (found in unit `unit`, with unit-local lines) as this
    /// collector's, respecting its limits.
    pub fn absorb(&mut self, other: Diagnostics, unit: usize) {
        let unlogged = other.total - other.logged.len();
        for d in other.logged {
            let pos = Pos {
                line: unit_line(unit, d.line),
                col: d.col,
            };
            self.error(pos, d.message);
        }
        self.total += unlogged;
    }
}

/// How many low bits of a line number count lines within a compilation unit when a
/// stage is compiled from several; the unit's index is in the bits above. A unit's
/// lines past 2^20 − 1 (only reachable with `#line`) count as that line.
pub const UNIT_LINE_BITS: u32 = 20;

/// The line number that stands for `line` of unit `unit` in a compile of several.
pub fn unit_line(unit: usize, line: u32) -> u32 {
    let unit = u32::try_from(unit).unwrap_or(u32::MAX) << UNIT_LINE_BITS;
    unit | line.min((1 << UNIT_LINE_BITS) - 1)
}

/// The (unit, line) a line number from [`unit_line`] stands for.
pub fn split_unit_line(line: u32) -> (usize, u32) {
    (
        (line >> UNIT_LINE_BITS) as usize,
        line & ((1 << UNIT_LINE_BITS) - 1),
    )
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
