//! File bytes as UTF-8 text, with the position of the first invalid byte.

/// Bytes that are not UTF-8 text: where the first invalid byte is, 1-based, the column
/// counted in characters (as compiler diagnostics count them).
///
/// Displayed as `not UTF-8 text (invalid byte at line 2, column 5)`; callers put the
/// file first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not UTF-8 text (invalid byte at line {line}, column {column})")]
pub struct NotUtf8 {
    /// Line of the first invalid byte.
    pub line: usize,
    /// Column of the first invalid byte, in characters.
    pub column: usize,
}

/// `bytes` as a `String`, or where they stop being UTF-8.
///
/// # Errors
/// [`NotUtf8`] with the position of the first byte that is not part of a valid UTF-8
/// sequence (a sequence cut short by the end of the file counts as invalid).
pub fn utf8_text(bytes: Vec<u8>) -> Result<String, NotUtf8> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let valid = &bytes[..e.utf8_error().valid_up_to()];
        // `valid` is UTF-8 by construction.
        let valid = std::str::from_utf8(valid).unwrap_or_default();
        let line_start = valid.rfind('\n').map_or(0, |i| i + 1);
        NotUtf8 {
            line: valid.matches('\n').count() + 1,
            column: valid[line_start..].chars().count() + 1,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_counts_lines_and_characters() {
        assert_eq!(utf8_text(b"plain".to_vec()).unwrap(), "plain");
        let at = |bytes: &[u8]| utf8_text(bytes.to_vec()).unwrap_err();
        assert_eq!(at(b"\xff"), NotUtf8 { line: 1, column: 1 });
        assert_eq!(
            at(b"ab\ncd\n\xc3\xa9\xe2\x82\xacx\xff"),
            NotUtf8 { line: 3, column: 4 }
        );
        // A sequence cut short by the end.
        assert_eq!(at(b"ok\xe2\x82"), NotUtf8 { line: 1, column: 3 });
        assert_eq!(
            at(b"a\nb\x80").to_string(),
            "not UTF-8 text (invalid byte at line 2, column 2)"
        );
    }
}
