//! `NAME=v0,v1,...` and `x,y,...` command-line values: what `--uniform`, `--attr`,
//! `--varying` and `--fragcoord` take.

use std::str::FromStr;
use thiserror::Error;

/// Why a `NAME=v0,v1,...` or `v0,v1,...` value does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AssignmentError {
    /// No `=` between the name and the values.
    #[error("'{0}' is not NAME=v0,v1,...: there is no '='")]
    NoEquals(String),
    /// Nothing before the `=`.
    #[error("'{0}' has no name before '='")]
    NoName(String),
    /// A value is not a float.
    #[error("'{value}' in '{text}' is not a number")]
    NotANumber {
        /// The whole argument.
        text: String,
        /// The part that is not a float.
        value: String,
    },
    /// No values at all.
    #[error("'{0}' gives no values")]
    Empty(String),
}

/// One `NAME=v0,v1,...` argument: a name (uniform, attribute location or name, varying)
/// and its values in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    /// The text before `=`, trimmed.
    pub name: String,
    /// The comma-separated values after `=`, as floats (what a float input takes).
    pub values: Vec<f32>,
    /// The same values as `f64`, which holds every 32-bit int and uint exactly
    /// (`4294967295` as an `f32` would be 2^32): what [`Assignment::integers`] reads.
    pub wide: Vec<f64>,
}

impl Assignment {
    /// The values as integers, when each is one (`3`, `-7`, `3.0`, `1e3`; within
    /// ±9·10^18), for an input that takes exact integers; otherwise `Err` with the
    /// first value that is not.
    pub fn integers(&self) -> Result<Vec<i64>, f64> {
        self.wide
            .iter()
            .map(|&v| {
                if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e18 {
                    Ok(v as i64)
                } else {
                    Err(v)
                }
            })
            .collect()
    }
}

impl FromStr for Assignment {
    type Err = AssignmentError;

    /// Parse `NAME=v0,v1,...`: a non-empty name, `=`, one or more floats (Rust float
    /// syntax, so `1`, `-0.5`, `1e-3`, `inf` and `NaN` all work) separated by commas;
    /// spaces around names and values are ignored.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, values) = text
            .split_once('=')
            .ok_or_else(|| AssignmentError::NoEquals(text.to_string()))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(AssignmentError::NoName(text.to_string()));
        }
        Ok(Assignment {
            name: name.to_string(),
            values: parse_floats(values).map_err(|e| e.within(text))?,
            // Each part parsed as an f32 already, so parses as an f64 too.
            wide: values
                .split(',')
                .map(|v| v.trim().parse::<f64>().unwrap_or(f64::NAN))
                .collect(),
        })
    }
}

/// Parse `v0,v1,...` (at least one float).
///
/// # Errors
/// [`AssignmentError::Empty`] for blank text, [`AssignmentError::NotANumber`] for a
/// part that is not a float.
pub fn parse_floats(text: &str) -> Result<Vec<f32>, AssignmentError> {
    if text.trim().is_empty() {
        return Err(AssignmentError::Empty(text.to_string()));
    }
    text.split(',')
        .map(|v| {
            v.trim()
                .parse::<f32>()
                .map_err(|_| AssignmentError::NotANumber {
                    text: text.to_string(),
                    value: v.trim().to_string(),
                })
        })
        .collect()
}

impl AssignmentError {
    /// The same error, quoting the whole argument `text` rather than its value part.
    fn within(self, text: &str) -> Self {
        match self {
            AssignmentError::NotANumber { value, .. } => AssignmentError::NotANumber {
                text: text.to_string(),
                value,
            },
            AssignmentError::Empty(_) => AssignmentError::Empty(text.to_string()),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_floats() {
        let a: Assignment = "uLightDir = 0.3, 0.8,-5e-1".parse().unwrap();
        assert_eq!(a.name, "uLightDir");
        assert_eq!(a.values, vec![0.3, 0.8, -0.5]);
        let a: Assignment = "uL[1]=1".parse().unwrap();
        assert_eq!(
            (a.name.as_str(), a.values.as_slice()),
            ("uL[1]", &[1.0][..])
        );
    }

    #[test]
    fn integers_are_exact_to_32_bits_and_fractions_are_not_integers() {
        let a: Assignment = "u=4294967295, -2147483648, 3.0, 1e3".parse().unwrap();
        assert_eq!(a.values[0], 4_294_967_296.0, "the f32 rounds");
        assert_eq!(
            a.integers(),
            Ok(vec![4_294_967_295, -2_147_483_648, 3, 1000])
        );
        let a: Assignment = "u=1, 1.5".parse().unwrap();
        assert_eq!(a.integers(), Err(1.5));
        let a: Assignment = "u=inf".parse().unwrap();
        assert_eq!(a.integers(), Err(f64::INFINITY));
    }

    #[test]
    fn malformed_arguments_say_what_is_wrong() {
        let err = |s: &str| s.parse::<Assignment>().unwrap_err().to_string();
        assert_eq!(
            err("uColor"),
            "'uColor' is not NAME=v0,v1,...: there is no '='"
        );
        assert_eq!(err("=1,2"), "'=1,2' has no name before '='");
        assert_eq!(err("uColor="), "'uColor=' gives no values");
        assert_eq!(err("uColor=1,,2"), "'' in 'uColor=1,,2' is not a number");
        assert_eq!(err("uColor=1,x"), "'x' in 'uColor=1,x' is not a number");
    }

    #[test]
    fn bare_float_lists() {
        assert_eq!(parse_floats("1,2.5").unwrap(), vec![1.0, 2.5]);
        assert!(parse_floats(" ").is_err());
    }
}
