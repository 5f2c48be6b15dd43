//! Where a key of a JSON object stands in the text: serde_json reports the place where
//! it stopped, so the first place of a key given twice is found by scanning the text up
//! to there.

/// One open container while scanning: an object with the keys seen so far (decoded, with
/// their byte offsets) and whether the next string is a key, or a list.
enum Open {
    Object {
        keys: Vec<(String, usize)>,
        expect_key: bool,
    },
    List,
}

/// The byte offset of the first `key` in the innermost object still open at byte `end`
/// of `text`, or `None` when it is not there (an escape the scan cannot decode, a text
/// that is not JSON up to `end`).
///
/// The scan knows only strings, brackets, braces, commas and colons: the text before
/// `end` has already been read by serde_json without an error, so it is well formed.
pub(crate) fn first_key_offset(text: &str, end: usize, key: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let end = end.min(bytes.len());
    let mut open: Vec<Open> = Vec::new();
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'{' => open.push(Open::Object {
                keys: Vec::new(),
                expect_key: true,
            }),
            b'[' => open.push(Open::List),
            b'}' | b']' => {
                open.pop();
            }
            b',' => {
                if let Some(Open::Object { expect_key, .. }) = open.last_mut() {
                    *expect_key = true;
                }
            }
            b':' => {
                if let Some(Open::Object { expect_key, .. }) = open.last_mut() {
                    *expect_key = false;
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Open::Object {
                    keys,
                    expect_key: true,
                }) = open.last_mut()
                {
                    let raw = text.get(start..=i.min(bytes.len() - 1))?;
                    let decoded: String = serde_json::from_str(raw).ok()?;
                    keys.push((decoded, start));
                }
            }
            _ => {}
        }
        i += 1;
    }
    match open.last()? {
        Open::Object { keys, .. } => keys.iter().find(|(k, _)| k == key).map(|&(_, at)| at),
        Open::List => None,
    }
}

/// The 1-based line and character column of byte `offset` in `text` (the column as
/// [`char_column`](super::json::char_column) counts it).
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let row_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    (
        line,
        super::json::char_column(text, line, before.len() - row_start + 1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_key_of_the_innermost_open_object() {
        let text = "{\"x\": 0, \"a\": {\"x\": 1, \"y\": [\"x\"], \"x\": 2}}";
        // serde_json stops after the second inner "x"
        let end = text.rfind("\"x\"").unwrap() + 3;
        let at = first_key_offset(text, end, "x").unwrap();
        assert_eq!(at, text.find("{\"x\": 1").unwrap() + 1);
        assert_eq!(
            first_key_offset(text, end, "y"),
            Some(text.find("\"y\"").unwrap())
        );
        // a string in a list is not a key; a key of a closed object is not found
        assert_eq!(first_key_offset(text, end, "z"), None);
    }

    #[test]
    fn escaped_keys_and_quotes_are_decoded() {
        let text = r#"{"a\"b": 1, "é": 2, "a\"b": 3}"#;
        let end = text.rfind("\"a").unwrap() + 6;
        assert_eq!(first_key_offset(text, end, "a\"b"), Some(1));
        assert_eq!(
            first_key_offset(text, end, "é"),
            Some(text.find("\"é\"").unwrap())
        );
    }

    #[test]
    fn line_and_column_count_characters() {
        let text = "{\n  \"é\": 1, \"x\": 2}";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, text.find("\"x\"").unwrap()), (2, 11));
    }
}
