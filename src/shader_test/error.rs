//! The error of a malformed `.shader_test` file.

use thiserror::Error;

/// Something in a `.shader_test` file that cannot be read as piglit's format: an
/// unknown section, a command whose arguments do not parse, a bad `[vertex data]` row.
/// Displayed as `LINE: MESSAGE`; the caller puts the file first.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{line}: {message}")]
pub struct ParseError {
    /// 1-based line in the file.
    pub line: u32,
    /// What is wrong, naming what was expected and what was found.
    pub message: String,
}

impl ParseError {
    /// An error at `line`.
    pub fn new(line: u32, message: impl Into<String>) -> Self {
        ParseError {
            line,
            message: message.into(),
        }
    }
}
