//! The scene file's JSON, parsed with serde_json into a tree that keeps object keys in
//! document order, and typed readers that name the field they read in every error.
//!
//! Order matters: a sampler's texture unit is its position in the draw's `samplers`
//! object, and errors are reported for the first bad entry as the file lists it.
//! serde_json's own `Value` sorts keys, so this module has its own small tree.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::json_place;

/// A JSON value; objects keep their keys in document order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// Every JSON number, as f64 (integers are exact up to 2^53).
    Number(f64),
    String(String),
    /// A list with at least one item that is not a number (or no item at all).
    Array(Vec<Json>),
    /// A non-empty list whose every item is a number, held as 8 bytes a number rather
    /// than a whole `Json` each (4× less): vertex, index and texel data, which can be
    /// hundreds of MiB of a scene. Read both list kinds through [`Json::as_list`].
    Numbers(Vec<f64>),
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
            Json::Array(_) | Json::Numbers(_) => "a list",
            Json::Object(_) => "an object",
        }
    }

    /// The items of a list as `Json` values (a [`Json::Numbers`] list is copied into
    /// them: use it for short lists, [`Json::as_list`] for data), or `None` for any
    /// other value.
    pub(crate) fn items(&self) -> Option<Cow<'_, [Json]>> {
        match self {
            Json::Array(items) => Some(Cow::Borrowed(items)),
            Json::Numbers(numbers) => Some(Cow::Owned(
                numbers.iter().map(|n| Json::Number(*n)).collect(),
            )),
            _ => None,
        }
    }

    /// The items of a list (either kind), or `None` for any other value.
    pub(crate) fn as_list(&self) -> Option<List<'_>> {
        match self {
            Json::Array(items) => Some(List::Values(items)),
            Json::Numbers(numbers) => Some(List::Numbers(numbers)),
            _ => None,
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
            Json::Array(_) | Json::Numbers(_) => "a list".into(),
            Json::Object(_) => "an object".into(),
        }
    }
}

/// The items of a JSON list, borrowed from either of its two forms ([`Json::Array`],
/// [`Json::Numbers`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum List<'j> {
    /// Items of any kind.
    Values(&'j [Json]),
    /// Items that are all numbers.
    Numbers(&'j [f64]),
}

impl<'j> List<'j> {
    /// The number of items.
    pub(crate) fn len(&self) -> usize {
        match self {
            List::Values(items) => items.len(),
            List::Numbers(numbers) => numbers.len(),
        }
    }

    /// Item `k`, or `None` past the end (a number is made into a `Json::Number`).
    pub(crate) fn get(&self, k: usize) -> Option<Cow<'j, Json>> {
        match *self {
            List::Values(items) => items.get(k).map(Cow::Borrowed),
            List::Numbers(numbers) => numbers.get(k).map(|n| Cow::Owned(Json::Number(*n))),
        }
    }

    /// The items in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = Cow<'j, Json>> {
        (0..self.len()).map(move |k| self.get(k).expect("k < len"))
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

/// Counts the bytes a parse holds (the text and the tree built so far, by capacity)
/// against a limit, so an over-large scene is refused before it is built rather than
/// after ([`parse_within`]).
struct Meter {
    /// Bytes held: the text, then every list, object and string as it grows.
    used: Cell<u64>,
    /// The most the parse may hold.
    limit: u64,
    /// Set when a growth was refused: the parse's error is then the budget, not the
    /// syntax.
    over: Cell<bool>,
}

impl Meter {
    /// Makes room for one more item in `items`, growing it by doubling as `Vec` does,
    /// when the bytes held during the copy (old and new buffer) stay within the limit.
    fn room_for_one<T, E: serde::de::Error>(&self, items: &mut Vec<T>) -> Result<(), E> {
        if items.len() < items.capacity() {
            return Ok(());
        }
        let size = std::mem::size_of::<T>() as u64;
        let old = items.capacity() as u64;
        let new = (old * 2).max(4);
        self.charge(new * size)?;
        items.reserve_exact((new - old) as usize);
        self.used.set(self.used.get() - old * size);
        Ok(())
    }

    /// Counts `bytes` more, or refuses them when that passes the limit.
    fn charge<E: serde::de::Error>(&self, bytes: u64) -> Result<(), E> {
        let used = self.used.get().saturating_add(bytes);
        if used > self.limit {
            self.over.set(true);
            return Err(E::custom("the scene's JSON does not fit the memory limit"));
        }
        self.used.set(used);
        Ok(())
    }
}

/// Builds one [`Json`] value, counting what it holds on the [`Meter`].
#[derive(Clone, Copy)]
struct JsonSeed<'m>(&'m Meter);

impl<'de> DeserializeSeed<'de> for JsonSeed<'_> {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonSeed<'_> {
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

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Json, E> {
        self.0.charge(v.len() as u64)?;
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Json, E> {
        self.0.charge(v.capacity() as u64)?;
        Ok(Json::String(v))
    }

    /// A list is kept as [`Json::Numbers`] while its items are numbers, and becomes a
    /// [`Json::Array`] at its first other item.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut numbers: Vec<f64> = Vec::new();
        let first_other = loop {
            match seq.next_element_seed(self)? {
                None if numbers.is_empty() => return Ok(Json::Array(Vec::new())),
                None => return Ok(Json::Numbers(numbers)),
                Some(Json::Number(n)) => {
                    self.0.room_for_one(&mut numbers)?;
                    numbers.push(n);
                }
                Some(other) => break other,
            }
        };
        let size = std::mem::size_of::<Json>() as u64;
        self.0.charge((numbers.len() as u64 + 1) * size)?;
        let mut items: Vec<Json> = Vec::with_capacity(numbers.len() + 1);
        items.extend(numbers.iter().map(|n| Json::Number(*n)));
        items.push(first_other);
        let freed = std::mem::size_of_val(numbers.as_slice()) as u64;
        drop(numbers);
        self.0.used.set(self.0.used.get() - freed);
        while let Some(item) = seq.next_element_seed(self)? {
            self.0.room_for_one(&mut items)?;
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
            self.0.charge(key.capacity() as u64)?;
            let value = map.next_value_seed(self)?;
            self.0.room_for_one(&mut entries)?;
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
/// deeply nested input is an error, not a stack overflow), with no memory limit.
pub(crate) fn parse(text: &str) -> Result<Json, SyntaxError> {
    match parse_within(text, u64::MAX) {
        Ok((json, _)) => Ok(json),
        Err(ParseError::Syntax(e)) => Err(e),
        Err(ParseError::OverLimit { .. }) => unreachable!("no parse holds u64::MAX bytes"),
    }
}

/// Why [`parse_within`] gave no tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// The text is not JSON, or breaks one of the scene file's JSON rules.
    Syntax(SyntaxError),
    /// The text and the tree built from it would hold more than `limit` bytes; the
    /// parse stopped when it had `held` bytes, before allocating past the limit.
    OverLimit { held: u64, limit: u64 },
}

/// [`parse`] within a memory limit: the text's bytes and every list, object and string
/// of the tree (by capacity, counting both buffers while a list grows) are counted as
/// they are read, and the parse stops before they pass `limit`. Returns the tree with
/// the bytes it and the text hold.
///
/// # Errors
/// [`ParseError::Syntax`] with its 1-based line and character column, or
/// [`ParseError::OverLimit`].
pub(crate) fn parse_within(text: &str, limit: u64) -> Result<(Json, u64), ParseError> {
    let meter = Meter {
        used: Cell::new(0),
        limit,
        over: Cell::new(false),
    };
    let text_bytes = text.len() as u64;
    if text_bytes > limit {
        return Err(ParseError::OverLimit {
            held: text_bytes,
            limit,
        });
    }
    meter.used.set(text_bytes);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let parsed = JsonSeed(&meter)
        .deserialize(&mut deserializer)
        .and_then(|json| deserializer.end().map(|()| json));
    parsed.map(|json| (json, meter.used.get())).map_err(|e| {
        if meter.over.get() {
            return ParseError::OverLimit {
                held: meter.used.get(),
                limit,
            };
        }
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
        ParseError::Syntax(SyntaxError {
            line: e.line(),
            column: char_column(text, e.line(), e.column()),
            message,
        })
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

    #[test]
    fn lists_of_numbers_are_held_as_doubles_and_mixed_lists_keep_their_order() {
        let v = parse("[1, 2.5, -3]").unwrap();
        assert_eq!(v, Json::Numbers(vec![1.0, 2.5, -3.0]));
        assert_eq!(parse("[]").unwrap(), Json::Array(vec![]));
        // a list turns into values at its first item that is not a number
        let v = parse(r#"[1, 2, "x", 3, [4, 5]]"#).unwrap();
        assert_eq!(
            v,
            Json::Array(vec![
                Json::Number(1.0),
                Json::Number(2.0),
                Json::String("x".into()),
                Json::Number(3.0),
                Json::Numbers(vec![4.0, 5.0]),
            ])
        );
        let list = v.as_list().unwrap();
        assert_eq!(list.len(), 5);
        assert_eq!(list.get(3).as_deref(), Some(&Json::Number(3.0)));
        assert_eq!(list.get(5), None);
        let numbers = parse("[7, 8]").unwrap();
        let items: Vec<Json> = numbers
            .as_list()
            .unwrap()
            .iter()
            .map(|c| c.into_owned())
            .collect();
        assert_eq!(items, vec![Json::Number(7.0), Json::Number(8.0)]);
        assert_eq!(numbers.items().unwrap().len(), 2);
        assert_eq!(numbers.type_name(), "a list");
        assert!(Json::Null.as_list().is_none() && Json::Null.items().is_none());
    }

    #[test]
    fn a_parse_counts_its_text_and_tree_and_stops_at_its_limit() {
        let text = format!("[{}]", vec!["0.5"; 10_000].join(","));
        let (json, held) = parse_within(&text, u64::MAX).unwrap();
        assert_eq!(json, Json::Numbers(vec![0.5; 10_000]));
        // the text, and 16 384 doubles of capacity (doubling from 4)
        assert_eq!(held, text.len() as u64 + 16_384 * 8);
        // one byte less than the last growth needs (old and new buffer together)
        let limit = text.len() as u64 + (8_192 + 16_384) * 8 - 1;
        assert_eq!(
            parse_within(&text, limit),
            Err(ParseError::OverLimit {
                held: text.len() as u64 + 8_192 * 8,
                limit,
            })
        );
        assert!(parse_within(&text, limit + 1).is_ok());
        // the text alone
        assert_eq!(
            parse_within(&text, 10),
            Err(ParseError::OverLimit {
                held: text.len() as u64,
                limit: 10,
            })
        );
        // strings and keys count their bytes
        let (_, held) = parse_within(r#"{"key": "value"}"#, u64::MAX).unwrap();
        let entry = std::mem::size_of::<(String, Json)>() as u64;
        assert_eq!(held, 16 + 3 + 5 + 4 * entry);
        // a syntax error within the limit is still a syntax error
        assert!(matches!(
            parse_within("[1,", u64::MAX),
            Err(ParseError::Syntax(SyntaxError { line: 1, .. }))
        ));
    }
}
