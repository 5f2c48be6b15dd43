//! Printing a report (`run`'s invocation, `trace`'s pixel) as text or, with `--json`,
//! as pretty JSON for tools.

use super::fail;
use serde::Serialize;
use std::fmt::Display;
use std::process::ExitCode;

/// Print `report` to stdout, as JSON when `json`, else in its text form; exit 0.
pub fn print_report(report: &(impl Serialize + Display), json: bool) -> ExitCode {
    if json {
        match serde_json::to_string_pretty(report) {
            Ok(text) => outln!("{text}"),
            Err(e) => return fail(e),
        }
    } else {
        out!("{report}");
    }
    ExitCode::SUCCESS
}
