//! The scene file's JSON, parsed with serde_json into a tree that keeps object keys in
//! document order, and typed readers that name the field they read in every error.
//!
//! Order matters: a sampler's texture unit is its position in the draw's `samplers`
//! object, and errors are reported for the first bad entry as the file lists it.
//! serde_json's own `Value` sorts keys, so this module has its own small tree.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::json_place;

/// A JSON value; objects keep their keys in document order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// Every JSON number, as f64 (integers are exact up to 2^53).
    Number(f64),
    String(String),
    Array(Vec<Json>),
    /// Key/value pairs in document order, each key once: a key given twice in one
    /// object is a syntax error (JSON parsers disagree on which value counts, so a
    /// scene that repeats one means two things).
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The JSON type name, for "expected …, got …" messages.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "a list",
            Json::Object(_) => "an object",
        }
    }

    /// A short rendering of the value for error messages (strings quoted, long values
    /// cut).
    pub(crate) fn brief(&self) -> String {
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => b.to_string(),
            Json::Number(n) => format_number(*n),
            Json::String(s) if s.chars().count() > 40 => {
                format!("{:?}…", s.chars().take(40).collect::<String>())
            }
            Json::String(s) => format!("{s:?}"),
            Json::Array(_) => "a list".into(),
            Json::Object(_) => "an object".into(),
        }
    }
}

/// The value under `key` in an object's entries.
pub(crate) fn get<'j>(entries: &'j [(String, Json)], key: &str) -> Option<&'j Json> {
    entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Integers without a fraction, very large or small magnitudes in exponent form (1e39),
/// everything else in Rust's shortest round-trip form.
pub(crate) fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else if n.abs() >= 1e15 || n.abs() < 1e-4 {
        format!("{n:e}")
    } else {
        format!("{n}")
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Number(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries: Vec<(String, Json)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if let Some(first) = entries.iter().position(|(k, _)| *k == key) {
                return Err(serde::de::Error::custom(format!(
                    "{DUPLICATE_KEY}{key}` is given twice in one object (it is key {} of the \
                     object already); JSON parsers disagree on which value counts: give it \
                     once",
                    first + 1
                )));
            }
            let value = map.next_value::<Json>()?;
            entries.push((key, value));
        }
        Ok(Json::Object(entries))
    }
}

/// A JSON syntax error with its 1-based position (the column counts characters, as an
/// editor does, not bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) message: String,
}

/// Parses a whole JSON document (serde_json's recursion limit of 128 levels applies, so
/// deeply nested input is an error, not a stack overflow).
pub(crate) fn parse(text: &str) -> Result<Json, SyntaxError> {
    serde_json::from_str(text).map_err(|e| {
        // serde_json appends " at line L column C"; the position is reported separately
        let full = e.to_string();
        let mut message = match full.rfind(" at line ") {
            Some(cut) => full[..cut].to_owned(),
            None => full,
        };
        if let Some(first) = first_place_of_duplicate(text, &message, e.line(), e.column()) {
            message.push_str(&format!(" (first at line {}, column {})", first.0, first.1));
        }
        if non_finite_token_at(text, e.line(), e.column()) {
            message.push_str(
                " (JSON has no NaN or Infinity: a scene's numbers are finite, written as \
                 digits)",
            );
        }
        SyntaxError {
            line: e.line(),
            column: char_column(text, e.line(), e.column()),
            message,
        }
    })
}

/// How the error of a key given twice begins; the key and a backtick follow.
const DUPLICATE_KEY: &str = "key `";

/// The line and column of the first place of the key a duplicate-key `message` names,
/// in the object serde_json was reading at its 1-based `line` and byte `column`.
fn first_place_of_duplicate(
    text: &str,
    message: &str,
    line: usize,
    column: usize,
) -> Option<(usize, usize)> {
    let rest = message.strip_prefix(DUPLICATE_KEY)?;
    let key = &rest[..rest.find("` is given twice in one object")?];
    let line_start: usize = text
        .split('\n')
        .take(line.saturating_sub(1))
        .map(|row| row.len() + 1)
        .sum();
    let end = line_start + column;
    let first = json_place::first_key_offset(text, end, key)?;
    Some(json_place::line_column(text, first))
}

/// The 1-based character column of serde_json's 1-based byte `column` on `line`
/// (a column past the line's end counts past it, one per byte, as at the end of the
/// text).
pub(super) fn char_column(text: &str, line: usize, column: usize) -> usize {
    let Some(row) = text.split('\n').nth(line.saturating_sub(1)) else {
        return column;
    };
    let before = column.saturating_sub(1);
    if before <= row.len() {
        // serde_json reports a byte at a character boundary or inside the character it
        // stopped in; count the characters that start before it.
        row.char_indices().take_while(|(i, _)| *i < before).count() + 1
    } else {
        row.chars().count() + (before - row.len()) + 1
    }
}

/// Whether a `NaN`, `Infinity` or `-Infinity` token (as JavaScript writes them) starts
/// at or just before the 1-based `line` and byte `column` serde_json reports. Works on
/// bytes: the column counts bytes, and a token of ASCII letters never splits a
/// character.
fn non_finite_token_at(text: &str, line: usize, column: usize) -> bool {
    let Some(row) = text.lines().nth(line.saturating_sub(1)) else {
        return false;
    };
    let row = row.as_bytes();
    let in_token = |b: &u8| b.is_ascii_alphabetic() || *b == b'-';
    let at = column.saturating_sub(1).min(row.len());
    // serde_json points at the token's first byte or past it
    let from = row[..at]
        .iter()
        .rposition(|b| !in_token(b))
        .map_or(0, |i| i + 1);
    let len = row[from..].iter().take_while(|b| in_token(b)).count();
    matches!(
        &row[from..from + len],
        b"NaN" | b"Infinity" | b"-Infinity" | b"-NaN" | b"inf" | b"-inf" | b"nan"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_keep_document_order() {
        let v = parse(r#"{"b": 1, "a": [true, null, "x"]}"#).unwrap();
        assert_eq!(
            v,
            Json::Object(vec![
                ("b".into(), Json::Number(1.0)),
                (
                    "a".into(),
                    Json::Array(vec![Json::Bool(true), Json::Null, Json::String("x".into())])
                ),
            ])
        );
        let Json::Object(entries) = &v else {
            panic!("an object")
        };
        assert_eq!(get(entries, "b"), Some(&Json::Number(1.0)));
        assert_eq!(get(entries, "c"), None);
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // `é` and `→` are 2 and 3 bytes; the error is at the `x` after them, the
        // 13th character of its line (the 17th byte).
        let err = parse("{\"a\": \"é→\", x}").unwrap_err();
        assert_eq!((err.line, err.column), (1, 13), "{}", err.message);
        let err = parse("{\"é\": 1,\n \"é\": 2}").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.column <= 7, "{}", err.column);
        assert_eq!(char_column("ab", 1, 3), 3);
        assert_eq!(char_column("é", 1, 4), 3);
    }

    #[test]
    fn a_key_given_twice_is_an_error_at_its_second_place() {
        let err = parse("{\"b\": 1,\n \"a\": {\"x\": 1, \"x\": 2}}").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(
            err.message.ends_with("(first at line 2, column 8)"),
            "{}",
            err.message
        );
        assert!(
            err.message.starts_with(
                "key `x` is given twice in one object (it is key 1 of the object already)"
            ),
            "{}",
            err.message
        );
        let err = parse(r#"{"b": 1, "a": 2, "b": 3}"#).unwrap_err();
        assert!(
            err.message.contains("key `b` is given twice"),
            "{}",
            err.message
        );
    }

    #[test]
    fn nan_and_infinity_get_a_hint() {
        for token in ["NaN", "Infinity", "-Infinity"] {
            let err = parse(&format!("{{\"x\": [1, {token}]}}")).unwrap_err();
            assert!(
                err.message.ends_with(
                    "(JSON has no NaN or Infinity: a scene's numbers are finite, written as digits)"
                ),
                "{token}: {}",
                err.message
            );
        }
        let err = parse(r#"{"x": [1, nope]}"#).unwrap_err();
        assert!(!err.message.contains("NaN"), "{}", err.message);
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let err = parse("{\n  \"width\": 320,\n  \"height\" 240\n}").unwrap_err();
        assert_eq!((err.line, err.column), (3, 12));
        assert_eq!(err.message, "expected `:`");
        assert!(parse("[".repeat(100_000).as_str()).is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn brief_quotes_strings_and_cuts_long_ones() {
        assert_eq!(Json::String("less".into()).brief(), "\"less\"");
        assert_eq!(Json::Number(3.0).brief(), "3");
        assert_eq!(Json::Number(2.5).brief(), "2.5");
        assert_eq!(Json::Number(1e39).brief(), "1e39");
        assert_eq!(Json::Number(-1.5e-7).brief(), "-1.5e-7");
        assert_eq!(
            Json::String("x".repeat(50)).brief(),
            format!("{:?}…", "x".repeat(40))
        );
    }
}
