//! A cursor over one line of a `.shader_test` file that reads words, punctuation and
//! numbers with the number syntax of piglit's `shader_runner` (docs/conformance.md,
//! "The file format"):
//!
//! * a float is C's `strtod` syntax (`1`, `-0.5`, `.25`, `1e-3`, `inf`, `nan`), or
//!   `0x` followed by hex digits, which gives the float with exactly those 32 bits
//!   (`0x3f800000` is 1.0);
//! * an int or uint is C's `strtol` / `strtoul` with base 0: decimal, `0x` hex or a
//!   leading `0` for octal; a negative uint wraps as in C (`-1` is 4294967295);
//!   values that do not fit saturate to 64 bits and then keep their low 32 bits, as the
//!   C conversions `shader_runner` relies on do on x86-64; a uint may end in GLSL's
//!   `u` suffix (`0u`), where `strtoul` stops.
//!
//! Errors are plain messages; the caller adds the file and line.
//!
//! An int or uint that a shader will see goes through [`exact_integer`]: CSIR keeps
//! integers in f32 registers, so one outside ±(2^24 − 1) is an error naming that limit
//! rather than a silently rounded number.

use csir::ir::MAX_EXACT_INT;

/// Reading position in one line.
#[derive(Clone, Debug)]
pub(crate) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text` (one line, without its newline).
    pub fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    /// Skip spaces and tabs (and any other whitespace).
    pub fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// What is left, without leading or trailing whitespace.
    pub fn rest(&self) -> &'a str {
        self.text[self.pos..].trim()
    }

    /// Whether only whitespace is left.
    pub fn at_end(&self) -> bool {
        self.rest().is_empty()
    }

    /// The next run of non-whitespace characters, if any.
    pub fn word(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if len == 0 {
            return None;
        }
        self.pos += len;
        Some(&rest[..len])
    }

    /// Consume the word `word` (followed by whitespace or the end of the line) if it is
    /// next; report whether it was.
    pub fn eat_word(&mut self, word: &str) -> bool {
        let mut probe = self.clone();
        if probe.word() == Some(word) {
            *self = probe;
            true
        } else {
            false
        }
    }

    /// Consume the punctuation character `c` (after whitespace) if it is next.
    pub fn eat_char(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.text[self.pos..].starts_with(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Consume the punctuation character `c` or fail naming what was found instead.
    pub fn expect_char(&mut self, c: char) -> Result<(), String> {
        if self.eat_char(c) {
            Ok(())
        } else {
            Err(format!("expected '{c}', found {}", self.found()))
        }
    }

    /// The next thing on the line, for an error message: `'TEXT'` or `the end of the
    /// line`.
    pub fn found(&self) -> String {
        let rest = self.rest();
        match rest.split_whitespace().next() {
            None => "the end of the line".to_string(),
            Some(word) => format!("'{word}'"),
        }
    }

    /// The next number-like token: ASCII letters, digits, `.`, `+` and `-`.
    fn number_token(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-')))
            .unwrap_or(rest.len());
        if len == 0 {
            return None;
        }
        self.pos += len;
        Some(&rest[..len])
    }

    /// A float (see the module docs).
    pub fn float(&mut self) -> Result<f32, String> {
        let found = self.found();
        self.number_token()
            .and_then(parse_float)
            .ok_or_else(|| format!("expected a number, found {found}"))
    }

    /// `n` floats, each optionally followed by a comma.
    pub fn floats(&mut self, n: usize) -> Result<Vec<f32>, String> {
        (0..n)
            .map(|_| {
                let v = self.float();
                self.eat_char(',');
                v
            })
            .collect()
    }

    /// A signed 32-bit integer (see the module docs).
    pub fn int(&mut self) -> Result<i32, String> {
        let found = self.found();
        self.number_token()
            .and_then(parse_int)
            .ok_or_else(|| format!("expected an integer, found {found}"))
    }

    /// A count or index of a draw command (`first`, `count`, `instances`): an integer
    /// in `min..=2147483647` (a `GLint`/`GLsizei`, GL 3.3 §2.8), read whole. A value
    /// outside it is an error naming the value and the range, never wrapped to 32 bits
    /// as [`int`](Self::int)'s C conversion would.
    pub fn count(&mut self, min: u32) -> Result<u32, String> {
        let found = self.found();
        let token = self
            .number_token()
            .ok_or_else(|| format!("expected an integer, found {found}"))?;
        let (negative, magnitude) =
            signed_magnitude(token).ok_or_else(|| format!("expected an integer, found {found}"))?;
        match u32::try_from(magnitude) {
            Ok(n) if !negative && n >= min && n <= i32::MAX as u32 => Ok(n),
            Ok(0) if negative && min == 0 => Ok(0),
            _ => Err(format!("{token} is outside {min}..=2147483647 (a GLsizei)")),
        }
    }

    /// An unsigned 32-bit integer (see the module docs), optionally followed by one `u`
    /// or `U`, as in GLSL (`0u`): shader_runner's `strtoul` stops there, so
    /// `uniform uint x 7u` sets 7 (piglit's generated `packHalf2x16` tests write them
    /// so).
    pub fn uint(&mut self) -> Result<u32, String> {
        let found = self.found();
        self.number_token()
            .and_then(|t| parse_uint(t.strip_suffix(['u', 'U']).unwrap_or(t)))
            .ok_or_else(|| format!("expected an unsigned integer, found {found}"))
    }

    /// A parenthesised list of `n` floats: `( a , b , ... )`. As shader_runner's
    /// `sscanf` patterns, it stops matching after the `n`th value: the closing `)` is
    /// consumed when present, and anything else there (a fourth colour value given to
    /// an `rgb` probe) is left unread.
    pub fn float_tuple(&mut self, n: usize) -> Result<Vec<f32>, String> {
        self.tuple(n, Self::float)
    }

    /// A parenthesised list of `n` integers, read as [`float_tuple`](Self::float_tuple)
    /// reads floats.
    pub fn int_tuple(&mut self, n: usize) -> Result<Vec<i32>, String> {
        self.tuple(n, Self::int)
    }

    fn tuple<T>(
        &mut self,
        n: usize,
        mut read: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        self.expect_char('(')?;
        let mut values = Vec::with_capacity(n);
        for i in 0..n {
            if i > 0 {
                self.expect_char(',')?;
            }
            values.push(read(self)?);
        }
        self.eat_char(')');
        Ok(values)
    }
}

/// `v` as the float a shader holds it in, or an error when it is outside
/// ±[`MAX_EXACT_INT`] (2^24 − 1), where the float would be a different integer.
pub(crate) fn exact_integer(v: i64) -> Result<f32, String> {
    if v.unsigned_abs() > MAX_EXACT_INT as u64 {
        Err(format!(
            "{v} is outside -16777215..=16777215 (2^24 - 1): CSIR keeps integers in float \
             registers, exact only within that range"
        ))
    } else {
        Ok(v as f32)
    }
}

/// `strtof_hex`: `0x` + hex digits are the float's bits, anything else C `strtod`
/// syntax, rounded to f32. `None` unless the whole token is a number.
pub(crate) fn parse_float(token: &str) -> Option<f32> {
    if let Some(hex) = token.strip_prefix("0x") {
        let bits = parse_digits(hex, 16)?;
        // strtoul saturates at 64 bits; the union keeps the low 32.
        return Some(f32::from_bits(bits.min(u128::from(u64::MAX)) as u32));
    }
    token.parse::<f64>().ok().map(|v| v as f32)
}

/// C `strtol(token, _, 0)` stored in a 32-bit int.
pub(crate) fn parse_int(token: &str) -> Option<i32> {
    let (negative, magnitude) = signed_magnitude(token)?;
    let value = if negative {
        (-(magnitude.min(1 << 63) as i128)).max(i128::from(i64::MIN)) as i64
    } else {
        magnitude.min(i64::MAX as u128) as i64
    };
    Some(value as i32)
}

/// C `strtoul(token, _, 0)` stored in a 32-bit unsigned int.
pub(crate) fn parse_uint(token: &str) -> Option<u32> {
    let (negative, magnitude) = signed_magnitude(token)?;
    let value = magnitude.min(u128::from(u64::MAX)) as u64;
    let value = if negative {
        value.wrapping_neg()
    } else {
        value
    };
    Some(value as u32)
}

/// Sign and magnitude of a C integer literal with base prefix (`0x`, `0`).
fn signed_magnitude(token: &str) -> Option<(bool, u128)> {
    let (negative, digits) = match token.as_bytes().first()? {
        b'-' => (true, &token[1..]),
        b'+' => (false, &token[1..]),
        _ => (false, token),
    };
    let magnitude = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        parse_digits(hex, 16)?
    } else if digits.len() > 1 && digits.starts_with('0') {
        parse_digits(&digits[1..], 8)?
    } else {
        parse_digits(digits, 10)?
    };
    Some((negative, magnitude))
}

/// Digits in `radix`, saturating far above any 64-bit value; `None` when empty or
/// when a character is not a digit.
fn parse_digits(digits: &str, radix: u32) -> Option<u128> {
    if digits.is_empty() {
        return None;
    }
    digits.chars().try_fold(0u128, |acc, c| {
        let d = c.to_digit(radix)?;
        Some(
            acc.saturating_mul(u128::from(radix))
                .saturating_add(u128::from(d)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_follow_strtod_and_hex_bits() {
        assert_eq!(parse_float("1"), Some(1.0));
        assert_eq!(parse_float("-.5"), Some(-0.5));
        assert_eq!(parse_float("1e-3"), Some(0.001));
        assert_eq!(parse_float("0x3f800000"), Some(1.0));
        assert_eq!(parse_float("0xbf800000"), Some(-1.0));
        assert_eq!(parse_float("inf"), Some(f32::INFINITY));
        assert!(parse_float("nan").is_some_and(f32::is_nan));
        assert_eq!(parse_float("0.1"), Some(0.1f32));
        assert_eq!(parse_float("1.0f"), None);
        assert_eq!(parse_float("x"), None);
        assert_eq!(parse_float("0x"), None);
    }

    #[test]
    fn integers_follow_strtol_base_0() {
        assert_eq!(parse_int("-5"), Some(-5));
        assert_eq!(parse_int("0x10"), Some(16));
        assert_eq!(parse_int("010"), Some(8));
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("2147483648"), Some(i32::MIN));
        assert_eq!(parse_int("0xffffffff"), Some(-1));
        assert_eq!(parse_int("99999999999999999999999"), Some(-1));
        assert_eq!(parse_int("08"), None);
        assert_eq!(parse_uint("-1"), Some(u32::MAX));
        assert_eq!(parse_uint("0xffffffff"), Some(u32::MAX));
        assert_eq!(parse_uint("4294967296"), Some(0));
        assert_eq!(parse_uint("12a"), None);
    }

    #[test]
    fn the_cursor_reads_words_tuples_and_reports_what_it_found() {
        let mut c = Cursor::new("probe rect rgba ( 0, 1,2 ,3) (0.5,  1, 0x3f800000, 1) # c");
        assert!(c.eat_word("probe"));
        assert!(!c.eat_word("rgb"));
        assert!(c.eat_word("rect"));
        assert_eq!(c.word(), Some("rgba"));
        assert_eq!(c.int_tuple(4).unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(c.float_tuple(4).unwrap(), vec![0.5, 1.0, 1.0, 1.0]);
        assert_eq!(c.rest(), "# c");
        let mut c = Cursor::new("(1, 2");
        assert_eq!(
            c.float_tuple(3).unwrap_err(),
            "expected ',', found the end of the line"
        );
        let mut c = Cursor::new("  abc 1");
        assert_eq!(c.float().unwrap_err(), "expected a number, found 'abc'");
        let mut c = Cursor::new("1 2, 3");
        assert_eq!(c.floats(3).unwrap(), vec![1.0, 2.0, 3.0]);
        assert!(c.at_end());
    }
}
