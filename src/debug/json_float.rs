//! How the `--json` reports (`trace`, `run`) write floats.
//!
//! A finite float is a JSON number in the shortest form that reads back as the same
//! `f32` (so `0.1` is `0.1`, not `0.10000000149011612`). JSON has no NaN or infinity,
//! and serde_json would write them as `null`, which a tool cannot tell apart from an
//! absent value; so they are written as the strings `"NaN"`, `"inf"` and `"-inf"`
//! (every NaN payload as `"NaN"`). In the instruction trace a lane the instruction did
//! not write is `null` (see [`TracedInstruction`](super::TracedInstruction)).
//!
//! The functions are `#[serde(serialize_with = ...)]` helpers for the report fields,
//! and [`float`] serves [`LaneValue`](super::named_value::LaneValue)'s float lanes
//! (an integer lane is a JSON integer).

use serde::ser::Serializer;

/// The JSON string a non-finite float is written as; `None` for a finite one.
fn non_finite_name(value: f32) -> Option<&'static str> {
    if value.is_nan() {
        Some("NaN")
    } else if value == f32::INFINITY {
        Some("inf")
    } else if value == f32::NEG_INFINITY {
        Some("-inf")
    } else {
        None
    }
}

/// One float: a number, or `"NaN"` / `"inf"` / `"-inf"`.
struct JsonFloat(f32);

impl serde::Serialize for JsonFloat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match non_finite_name(self.0) {
            Some(name) => serializer.serialize_str(name),
            None => serializer.serialize_f32(self.0),
        }
    }
}

/// One float: a number, or `"NaN"` / `"inf"` / `"-inf"`.
pub(crate) fn float<S: Serializer>(value: f32, serializer: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&JsonFloat(value), serializer)
}

/// A list of floats (`Vec<f32>`, `[f32; N]`) as a JSON array, non-finite values named.
pub(crate) fn floats<T, S>(values: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: AsRef<[f32]>,
    S: Serializer,
{
    serializer.collect_seq(values.as_ref().iter().map(|&v| JsonFloat(v)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug::named_value::LaneValue;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Sample {
        #[serde(serialize_with = "floats")]
        list: Vec<f32>,
        #[serde(serialize_with = "floats")]
        array: [f32; 3],
        lanes: Vec<[Option<LaneValue>; 4]>,
    }

    #[test]
    fn non_finite_values_are_named_and_finite_ones_stay_exact() {
        let sample = Sample {
            list: vec![0.1, -0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY],
            array: [1.0, -f32::NAN, f32::MAX],
            lanes: vec![[
                Some(LaneValue::Float(0.015305996)),
                None,
                Some(LaneValue::Float(f32::NAN)),
                Some(LaneValue::Uint(u32::MAX)),
            ]],
        };
        assert_eq!(
            serde_json::to_string(&sample).unwrap(),
            r#"{"list":[0.1,-0.0,"NaN","inf","-inf"],"array":[1.0,"NaN",3.4028235e+38],"lanes":[[0.015305996,null,"NaN",4294967295]]}"#
        );
    }
}
