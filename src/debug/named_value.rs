//! Values by source name, read from vec4 slots (uniforms, varyings, outputs) with the
//! interface layout of [`csir::layout`], and their text form; one lane read as its
//! type says ([`LaneValue`]).

use csir::{Layout, Shader, Type};
use serde::{Serialize, Serializer};
use std::fmt;

/// One 32-bit lane as a value of its type. Under the extended profile an `int`/`uint`
/// register or slot holds the integer's 32-bit pattern (`docs/architecture.md`,
/// "Profiles"), which read as a float would be a meaningless (often denormal) number;
/// under the seed profile integers are float values and read as floats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LaneValue {
    /// A float (and every lane of the seed profile).
    Float(f32),
    /// The pattern of an `int`/`ivecN` lane, as `i32`.
    Int(i32),
    /// The pattern of a `uint`/`uvecN` lane, as `u32`.
    Uint(u32),
}

impl LaneValue {
    /// The lane `carrier` (a register's 32 bits in their `f32` carrier) read as type
    /// `ty` holds it: an integer type's pattern when `patterns` (the shader's profile
    /// is the extended one), else the float.
    pub fn read(carrier: f32, ty: Type, patterns: bool) -> LaneValue {
        match (patterns, ty.is_unsigned(), ty.is_integer()) {
            (true, true, _) => LaneValue::Uint(carrier.to_bits()),
            (true, false, true) => LaneValue::Int(carrier.to_bits() as i32),
            _ => LaneValue::Float(carrier),
        }
    }
}

impl LaneValue {
    /// The lane's 32 bits in their `f32` carrier, as a register holds them (the
    /// inverse of [`LaneValue::read`]).
    pub fn carrier(self) -> f32 {
        match self {
            LaneValue::Float(v) => v,
            LaneValue::Int(v) => f32::from_bits(v as u32),
            LaneValue::Uint(v) => f32::from_bits(v),
        }
    }
}

impl fmt::Display for LaneValue {
    /// A float in Rust's shortest round-trip form (`0.1`, `-0`, `NaN`, `inf`), an
    /// integer in decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaneValue::Float(v) => v.fmt(f),
            LaneValue::Int(v) => v.fmt(f),
            LaneValue::Uint(v) => v.fmt(f),
        }
    }
}

impl Serialize for LaneValue {
    /// A JSON number (an integer for `Int`/`Uint`); a NaN or infinite float as a string
    /// (see `json_float.rs`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            LaneValue::Float(v) => super::json_float::float(v, serializer),
            LaneValue::Int(v) => serializer.serialize_i32(v),
            LaneValue::Uint(v) => serializer.serialize_u32(v),
        }
    }
}

/// A typed value by its source name, e.g. `vNormal: vec3 = (0, 0.5, 0.8)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NamedValue {
    /// Source name (`gl_Position` for the vertex position).
    pub name: String,
    /// Type as written in source (`vec3`, `mat4`, `float[3]`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The lanes, column-major, element after element, each read as the type says
    /// (in JSON, integers as integers and NaN and infinities as `"NaN"`, `"inf"`,
    /// `"-inf"`: see `json_float.rs`).
    pub values: Vec<LaneValue>,
}

impl NamedValue {
    /// The value of `name: ty[array_len]` stored from vec4 slot `base` of `slots`
    /// (slots past the end read zeros); `patterns` when the shader's profile keeps
    /// integers as 32-bit patterns ([`LaneValue::read`]).
    pub fn from_slots(
        name: &str,
        ty: Type,
        array_len: Option<u16>,
        slots: &[[f32; 4]],
        base: usize,
        patterns: bool,
    ) -> Self {
        let layout = Layout::new(ty, array_len);
        NamedValue {
            name: name.to_string(),
            ty: layout.type_name(),
            values: layout
                .read(slots, base)
                .into_iter()
                .map(|v| LaneValue::read(v, ty, patterns))
                .collect(),
        }
    }
}

impl NamedValue {
    /// A fragment shader's colour output `color` (the four lanes STORE_COLOR stored),
    /// named as the shader declares it (`gl_FragColor` when it declares none), typed
    /// `vec4`, or `ivec4`/`uvec4` for an integer output of the extended profile.
    pub fn color_output(shader: &Shader, color: [f32; 4]) -> Self {
        let declared = shader.interface.color_output();
        let ty = match declared.map(|s| s.ty) {
            Some(t) if t.is_unsigned() => Type::UVec4,
            Some(t) if t.is_integer() => Type::IVec4,
            _ => Type::Vec4,
        };
        let name = declared.map_or("gl_FragColor", |s| s.name.as_str());
        let patterns = shader.limits.extended_ops();
        NamedValue::from_slots(name, ty, None, &[color], 0, patterns)
    }
}

/// Flat floats (4 per slot, the rasterizer's varying layout) as vec4 slots; a short
/// last slot is padded with zeros.
pub fn slots_of(flat: &[f32]) -> Vec<[f32; 4]> {
    flat.chunks(4)
        .map(|c| std::array::from_fn(|i| c.get(i).copied().unwrap_or(0.0)))
        .collect()
}

/// `(a, b, c)` with each value as [`LaneValue`] or `f32` displays it (a float in
/// Rust's shortest round-trip form), so the text shows exactly the bits that were
/// computed.
pub fn format_values<T: fmt::Display>(values: &[T]) -> String {
    let parts: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_take_one_slot_per_column() {
        let mut slots = vec![[9.0; 4]; 4];
        let m3: Vec<f32> = (1..=9).map(|v| v as f32).collect();
        Layout::new(Type::Mat3, None).write(&m3, &mut slots, 1);
        assert_eq!(
            slots,
            vec![
                [9.0; 4],
                [1.0, 2.0, 3.0, 0.0],
                [4.0, 5.0, 6.0, 0.0],
                [7.0, 8.0, 9.0, 0.0]
            ]
        );
        let back = NamedValue::from_slots("uN", Type::Mat3, None, &slots, 1, true);
        let floats: Vec<LaneValue> = m3.iter().map(|&v| LaneValue::Float(v)).collect();
        assert_eq!(back.values, floats);
        assert_eq!(back.ty, "mat3");
    }

    #[test]
    fn arrays_and_short_slot_lists() {
        let v =
            NamedValue::from_slots("uL", Type::Vec2, Some(3), &[[1.0, 2.0, 9.0, 9.0]], 0, false);
        let text = format_values(&v.values);
        assert_eq!(text, "(1, 2, 0, 0, 0, 0)");
        assert_eq!(v.ty, "vec2[3]");
        assert_eq!(format_values(&[0.1, -0.0, 1.0]), "(0.1, -0, 1)");
    }

    #[test]
    fn integer_lanes_read_as_their_pattern_only_under_the_extended_profile() {
        let bits = |v: u32| f32::from_bits(v);
        let slots = [[bits(0xFFFF_FFFF), bits(0xFFFF_FFFD), 3.0, 0.0]];
        let uint = NamedValue::from_slots("u", Type::UVec2, None, &slots, 0, true);
        assert_eq!(format_values(&uint.values), "(4294967295, 4294967293)");
        let int = NamedValue::from_slots("i", Type::IVec2, None, &slots, 0, true);
        assert_eq!(format_values(&int.values), "(-1, -3)");
        assert_eq!(int.values[1].carrier().to_bits(), 0xFFFF_FFFD);
        // The seed profile's integers are float values.
        let seed = NamedValue::from_slots("i", Type::IVec3, None, &slots, 0, false);
        assert_eq!(seed.values[2], LaneValue::Float(3.0));
        assert!(matches!(seed.values[0], LaneValue::Float(v) if v.is_nan()));
        assert_eq!(
            serde_json::to_string(&[uint.values, int.values]).unwrap(),
            "[[4294967295,4294967293],[-1,-3]]"
        );
    }
}
