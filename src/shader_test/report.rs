//! What running a `.shader_test` file gives, as text and JSON, the closing summary
//! line, and failure reasons grouped with counts.
//!
//! ```text
//! PASS  tests/shader_test/pass.shader_test
//! FAIL  tests/shader_test/fail.shader_test:27: probe rgba 1 1 1.0 0.0 0.0 1.0
//!       window pixel (1, 1): expected (1, 0, 0, 1), got (0, 1, 0, 1) = rgba8 (0, 255, 0, 255)
//! SKIP  tests/shader_test/skip.shader_test:3: needs extension GL_ARB_gpu_shader5
//! ERROR tests/shader_test/error.shader_test:12:5: error: 'colour' is not declared
//!       ...
//! 1 passed, 1 failed, 1 skipped, 1 errors
//! ```

use super::probe::{ProbeFailure, Rule};
use crate::debug::PixelTrace;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// How one test ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Outcome {
    /// Every probe matched.
    Pass,
    /// A probe found a wrong pixel: the first one.
    Fail {
        /// Line of the probe.
        line: u32,
        /// The probe command as written.
        command: String,
        /// The pixel, what was expected and what it holds.
        probe: ProbeFailure,
    },
    /// A compiler test ([`super::compiler_test`]) whose compile result is not the
    /// one it expects: a must-fail shader compiled, or a must-pass shader was
    /// rejected. Counted, and shown, as a failure.
    #[serde(rename = "fail")]
    Mismatch {
        /// The `expect_result` line (a shader that compiled), or the compiler's first
        /// error (a shader rejected).
        line: Option<u32>,
        /// The full message, starting with `FILE:LINE:`: `compiled, but GLSL
        /// requires an error`, or the compiler's messages with source lines and carets.
        message: String,
        /// One line naming the cause, without file or line, for grouping: the same
        /// text as the message's, or the compiler's first message.
        reason: String,
    },
    /// The test needs something csir-render does not have.
    Skip {
        /// Line of what is missing, when it is a line of the file.
        line: Option<u32>,
        /// What is missing, e.g. `needs extension GL_ARB_gpu_shader5`.
        reason: String,
    },
    /// The test could not run: a shader does not compile or link, the file is
    /// malformed, a command does not fit the program.
    Error {
        /// Line in the `.shader_test` file, when there is one.
        line: Option<u32>,
        /// The full message, starting with `FILE:LINE:`; compiler errors keep their
        /// source line and caret (in the `.shader_test` file's numbering).
        message: String,
        /// One line naming the cause, without file or line, for grouping
        /// (the compiler's first message, or the harness's).
        reason: String,
    },
}

/// The report of one test file.
#[derive(Clone, Debug, Serialize)]
pub struct TestReport {
    /// The file, as found.
    pub file: String,
    /// How it ended.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// With `--trace-failures`, the trace of the failing pixel (only for `Fail`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<PixelTrace>,
    /// Why the failing pixel could not be traced, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_error: Option<String>,
}

impl TestReport {
    /// A report without a trace.
    pub fn new(file: impl Into<String>, outcome: Outcome) -> Self {
        TestReport {
            file: file.into(),
            outcome,
            trace: None,
            trace_error: None,
        }
    }

    /// `pass`, `fail`, `skip` or `error`.
    pub fn status(&self) -> &'static str {
        match self.outcome {
            Outcome::Pass => "pass",
            Outcome::Fail { .. } | Outcome::Mismatch { .. } => "fail",
            Outcome::Skip { .. } => "skip",
            Outcome::Error { .. } => "error",
        }
    }

    /// The grouping reason: the skip, error or mismatch reason, `wrong pixel` for a
    /// failure, `None` for a pass.
    pub fn reason(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Pass => None,
            Outcome::Fail { .. } => Some("wrong pixel"),
            Outcome::Skip { reason, .. }
            | Outcome::Error { reason, .. }
            | Outcome::Mismatch { reason, .. } => Some(reason),
        }
    }
}

/// `(a, b, c)` with floats in their shortest exact form.
fn tuple<T: fmt::Display>(values: &[T]) -> String {
    let parts: Vec<String> = values.iter().map(ToString::to_string).collect();
    format!("({})", parts.join(", "))
}

impl fmt::Display for TestReport {
    /// One line per test (`PASS`, `FAIL`, `SKIP`, `ERROR`, then the file), a second
    /// line with the pixel for a failure, the compiler's source lines for an error,
    /// and the pixel trace when there is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Outcome::Pass => writeln!(f, "PASS  {}", self.file)?,
            Outcome::Fail {
                line,
                command,
                probe,
            } => {
                writeln!(f, "FAIL  {}:{line}: {command}", self.file)?;
                let n = probe.expected.len();
                let got: Vec<f32> = probe.got[..n]
                    .iter()
                    .map(|&b| f32::from(b) / 255.0)
                    .collect();
                let tolerance = match probe.rule {
                    Rule::Float { tolerance } => {
                        format!("tolerance {} per channel", tuple(&tolerance[..n]))
                    }
                    Rule::Byte {
                        expected,
                        tolerance,
                    } => format!(
                        "compared as bytes: expected {}, tolerance < {}",
                        tuple(&expected[..n]),
                        tuple(&tolerance[..n])
                    ),
                };
                writeln!(
                    f,
                    "      window pixel ({}, {}): expected {}, got {} = rgba8 {}; {tolerance}",
                    probe.pixel[0],
                    probe.pixel[1],
                    tuple(&probe.expected),
                    tuple(&got),
                    tuple(&probe.got),
                )?;
            }
            Outcome::Skip { line, reason } => match line {
                Some(line) => writeln!(f, "SKIP  {}:{line}: {reason}", self.file)?,
                None => writeln!(f, "SKIP  {}: {reason}", self.file)?,
            },
            Outcome::Error { message, .. } | Outcome::Mismatch { message, .. } => {
                let mut lines = message.trim_end().lines();
                let status = match self.outcome {
                    Outcome::Error { .. } => "ERROR",
                    _ => "FAIL ",
                };
                writeln!(f, "{status} {}", lines.next().unwrap_or_default())?;
                for l in lines {
                    writeln!(f, "      {l}")?;
                }
            }
        }
        if let Some(trace) = &self.trace {
            for l in trace.to_string().lines() {
                writeln!(f, "      | {l}")?;
            }
        }
        if let Some(e) = &self.trace_error {
            writeln!(f, "      (no trace: {e})")?;
        }
        Ok(())
    }
}

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Tests whose probes all matched.
    pub passed: usize,
    /// Tests with a wrong pixel, and compiler tests whose compile result is not the
    /// expected one.
    pub failed: usize,
    /// Tests needing something csir-render does not have.
    pub skipped: usize,
    /// Tests that could not run.
    pub errors: usize,
}

impl Summary {
    /// Count `reports`.
    pub fn of<'a>(reports: impl IntoIterator<Item = &'a TestReport>) -> Self {
        let mut s = Summary::default();
        for r in reports {
            s.add(r);
        }
        s
    }

    /// Count one more report.
    pub fn add(&mut self, report: &TestReport) {
        match report.outcome {
            Outcome::Pass => self.passed += 1,
            Outcome::Fail { .. } | Outcome::Mismatch { .. } => self.failed += 1,
            Outcome::Skip { .. } => self.skipped += 1,
            Outcome::Error { .. } => self.errors += 1,
        }
    }

    /// All tests counted.
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.skipped + self.errors
    }
}

impl fmt::Display for Summary {
    /// `N passed, N failed, N skipped, N errors`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} skipped, {} errors",
            self.passed, self.failed, self.skipped, self.errors
        )
    }
}

/// One group of non-passing tests with the same status and reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReasonCount {
    /// `fail`, `skip` or `error`.
    pub status: &'static str,
    /// The reason.
    pub reason: String,
    /// How many tests.
    pub count: usize,
}

/// The non-passing tests of `reports` grouped by status and reason, largest group
/// first (ties by status, then reason).
pub fn reasons<'a>(reports: impl IntoIterator<Item = &'a TestReport>) -> Vec<ReasonCount> {
    let mut groups: BTreeMap<(&'static str, String), usize> = BTreeMap::new();
    for r in reports {
        if let Some(reason) = r.reason() {
            *groups.entry((r.status(), reason.to_string())).or_default() += 1;
        }
    }
    let mut out: Vec<ReasonCount> = groups
        .into_iter()
        .map(|((status, reason), count)| ReasonCount {
            status,
            reason,
            count,
        })
        .collect();
    out.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(a.status.cmp(b.status))
            .then(a.reason.cmp(&b.reason))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lines_and_summary() {
        let fail = TestReport::new(
            "t.shader_test",
            Outcome::Fail {
                line: 9,
                command: "probe rgba 1 1 1.0 0.0 0.0 1.0".into(),
                probe: ProbeFailure {
                    pixel: [1, 1],
                    expected: vec![1.0, 0.0, 0.0, 1.0],
                    got: [0, 255, 0, 255],
                    rule: Rule::Float {
                        tolerance: [0.01; 4],
                    },
                },
            },
        );
        assert_eq!(
            fail.to_string(),
            "FAIL  t.shader_test:9: probe rgba 1 1 1.0 0.0 0.0 1.0\n      window pixel (1, 1): \
             expected (1, 0, 0, 1), got (0, 1, 0, 1) = rgba8 (0, 255, 0, 255); tolerance \
             (0.01, 0.01, 0.01, 0.01) per channel\n"
        );
        let error = TestReport::new(
            "e.shader_test",
            Outcome::Error {
                line: Some(4),
                message: "e.shader_test:4:2: error: bad\nsource\n ^\n".into(),
                reason: "bad".into(),
            },
        );
        assert_eq!(
            error.to_string(),
            "ERROR e.shader_test:4:2: error: bad\n      source\n       ^\n"
        );
        let skip = TestReport::new(
            "s.shader_test",
            Outcome::Skip {
                line: Some(2),
                reason: "needs extension GL_X".into(),
            },
        );
        assert_eq!(
            skip.to_string(),
            "SKIP  s.shader_test:2: needs extension GL_X\n"
        );
        let pass = TestReport::new("p.shader_test", Outcome::Pass);
        let all = [fail, error, skip.clone(), pass, skip];
        assert_eq!(
            Summary::of(&all).to_string(),
            "1 passed, 1 failed, 2 skipped, 1 errors"
        );
        let r = reasons(&all);
        assert_eq!(
            r[0],
            ReasonCount {
                status: "skip",
                reason: "needs extension GL_X".into(),
                count: 2
            }
        );
        assert_eq!(r.len(), 3);
        let json = serde_json::to_value(&all[0]).unwrap();
        assert_eq!(json["status"], "fail");
        assert_eq!(json["probe"]["got"][1], 255);
        assert_eq!(
            json["probe"]["rule"]["float"]["tolerance"][0],
            0.01f32 as f64
        );
    }
}
